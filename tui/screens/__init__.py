"""One screen per game, plus the launcher, the saves list, the replay viewer and dialogs."""
