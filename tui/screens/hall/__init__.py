"""The hall's screens, one folder: `lobby` (the games in the hall folder, HallScreen), `host` (a new
game), `scores`, `table` (a player's seat: the waiting screen, HallPlay under each game's hall
screen, HallSession), `follow` (the one follower of a hall game's files), `talk` (messages and the
idle-seat keys) and `watch` (the replay viewer in live mode, a watcher's). The app opens them; each
game's hall screen (tui/screens/games.py) builds on `table` and `talk`."""
