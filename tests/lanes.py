"""The suite's lanes: every test module in exactly one, given to its tests as a pytest marker by
tests/conftest.py (bar the longest engine tests, named in SLOW, in the slow lane), so that
`pytest -m rules -n auto` runs the rules and the engine in about a minute (docs/testing.md).
tests/test_tooling.py fails when a module is in none, or in two."""
from __future__ import annotations

LANES = {
    # the games' rules, bots, analysis, records and sessions in memory, the layering: no terminal, no process
    "rules": """
        analysis analysis_bones analysis_noise analysis_paired analysis_troll analysis_troll_playouts bones_bot bones_rules
        catalogue chance cli_table contract dicetower_rules import_circles journal_odds journal_rules layers
        pinned_results result_hook session session_protocol tooling towers_bot towers_rules troll_bot troll_layout troll_rules tui_layout wager_bots
        wager_rules
        judging
    """,
    # the engine's long checks: searches and solvers run deep, property tests, sims of thousands of games
    "slow": """
        analysis_pool journal_long_games journal_random_decks journal_reshuffle_bound properties towers_exact troll_search troll_solver
    """,
    # files on disk: saves, replays, text records, stats, caches, decks, the hall's files, the command line
    "files": """
        analysis_store_games caches_hostile cli comments deals docs hall hall_archive hall_files hall_matches hall_social hostile_records
        journal_deck journal_documents journal_export journal_gamefile journal_hostile_decks replays
        ratings replays_formats saves saves_branch saves_faults saves_formats saves_index saves_rooms stats
        text_records_hostile text_records_summary
    """,
    # the app driven through Textual's Pilot at 80x24
    "tui": """
        analysis_report analysis_store app assists bones_app comments_app every_screen footer hall_app hall_archive_app hall_matches_app images
        hall_drafts hall_handover hall_lobby hall_lobby_rows hall_scores hall_screens hall_social_app
        journal_app journal_rulings journal_screens ratings_app journal_vocabulary journal_writer practice refusals
        saves_list stats_app summary text_records text_records_copy towers_app troll_app troll_screen
        viewer_analysis viewer_app viewer_fit viewer_hindsight wager_app winnable
    """,
    # the box and whole processes: its gate, identities and attacker, sshd, pseudo-terminals, tmux,
    # signals, processes racing for a hall, `serve`, a built wheel
    "box": """
        adding_a_game admin_steps box_attacker box_gate box_identity box_players followers_end hall_race hall_settings
        no_terminal packaging ratings_attacker serve signals sshd terminal_app
    """,
}

# the engine's tests that take longest (each over ten seconds on a busy machine, about 70% of what
# the rules lane took): in the slow lane, so that the rest of their module stays in the fast one
SLOW = """
    analysis::test_analyse_json_on_a_replay
    analysis::test_analysis_is_repeatable_and_the_budget_maps_to_samples_deterministically
    analysis::test_towers_a_move_that_loses_points_at_the_end_is_marked_by_the_exact_margin_lost
    analysis::test_troll_figures_never_peek_at_face_down_cards_or_the_deck_order
    analysis::test_wager_when_stopping_wins_for_sure_is_marked_and_stop_named_best
    analysis_bones::test_analyse_json_on_a_bones_replay_has_the_issues_fields
    analysis_bones::test_no_peeking_figures_up_to_a_decision_do_not_depend_on_the_dice_after_it
    analysis_bones::test_the_same_file_and_samples_give_the_same_figures_and_the_budget_maps_to_samples
    analysis_noise::test_towers_bot_against_bot_a_game_of_good_moves_is_not_marked_as_blunders
    analysis_noise::test_towers_curve_is_lights_chance_before_and_after_each_move
    analysis_noise::test_towers_the_analyse_lines_name_each_side_and_the_end_says_whose_win
    analysis_troll::test_pairs_that_leave_the_same_position_are_never_marked_against_each_other_over_many_seeds
    analysis_troll::test_ruling_a_pair_that_loses_at_once_is_marked_by_its_judged_drop_only_and_said_so_in_words
    bones_bot::test_the_general_beats_random_at_least_nine_games_in_ten_and_always_answers
    bones_rules::test_random_legal_playouts_end_and_the_fold_of_the_events_is_the_state
    contract::test_every_sim_is_found_through_the_catalogue_and_reports_its_game
    journal_odds::test_save_load_and_replay_fold_to_the_live_state
    towers_bot::test_medium_beats_random_play_every_game_with_colours_alternated
    towers_bot::test_the_same_seed_gives_the_same_game
    troll_bot::test_the_adviser_beats_random_play_clearly
    wager_bots::test_best_beats_the_other_styles_exactly
    wager_bots::test_the_exact_tables_agree_with_a_simulation
"""

# The suite's longest tests, longest first (each over about 3 s on an idle machine, 10 s on a busy one;
# from `--durations=0` of a whole run): tests/conftest.py hands them out first and xdist's worksteal
# mode (pyproject.toml) shares out the rest, so that no worker is left running one of these alone at
# the end of the run. All of a test function's parameters go first. A name no longer in the suite is
# passed over; a new long test belongs here (docs/testing.md).
FIRST = """
    troll_search::test_on_standard_deals_it_wins_more_and_leaves_fewer_cards_than_the_adviser
    troll_search::test_the_search_does_at_least_as_well_as_the_adviser_on_the_same_deals
    wager_bots::test_best_beats_the_other_styles_exactly
    towers_bot::test_medium_beats_random_play_every_game_with_colours_alternated
    box_attacker::test_every_text_box_given_paths_reads_and_writes_nothing_outside_the_players_folder
    viewer_analysis::test_streamed_reports_are_drawn_at_most_a_few_a_second_and_the_last_one_always
    troll_search::test_a_game_played_by_the_search_is_repeatable
    towers_exact::test_the_analysis_of_a_game_is_exact_where_few_towers_are_left_and_agrees_with_the_solver
    viewer_hindsight::test_l_opens_the_line_which_steps_to_a_win_and_c_branches_a_save_from_it
    hall_app::test_two_real_terminals_play_a_whole_towers_game_through_the_hall_and_a_third_watches
    troll_app::test_a_whole_game_by_keys_then_review_reveal_and_branch
    analysis_bones::test_the_same_file_and_samples_give_the_same_figures_and_the_budget_maps_to_samples
    journal_screens::test_a_kept_rewrite_is_what_e_opens_and_escape_keeps_it
    summary::test_the_summary_of_a_whole_game_of_every_game
    analysis::test_analyse_json_on_a_replay
    text_records_copy::test_y_in_the_saves_list_copies_a_long_game_as_its_tag_lines
    winnable::test_twenty_seeds_give_deals_the_solver_proves_winnable
    practice::test_a_marked_decision_comes_back_hidden_the_best_accepted_the_played_not_and_solved_remembered
    comments_app::test_editing_shows_the_comment_and_an_empty_one_removes_it
    troll_bot::test_the_adviser_beats_random_play_clearly
    journal_screens::test_undo_keeps_a_rewrite_and_emptying_it_drops_it
    sshd::test_two_players_by_their_keys_one_game_a_watcher_the_scores_and_the_replay
    analysis_troll::test_pairs_that_leave_the_same_position_are_never_marked_against_each_other_over_many_seeds
    adding_a_game::test_a_game_added_by_the_documented_steps_is_listed_played_simulated_saved_and_accepted
    hall_app::test_two_real_terminals_play_a_whole_wager_through_the_hall_one_hung_up_and_back
    practice::test_towers_practice_judges_by_margin_as_its_marks_do
    app::test_play_a_tower_to_its_fall_undo_review_and_branch
    journal_writer::test_a_rewrite_under_way_survives_leaving_and_escape_keeps_it
    viewer_fit::test_every_footer_key_of_the_troll_viewer_is_on_screen_at_80_columns
    troll_search::test_on_standard_the_best_chance_is_played_and_elsewhere_only_a_clearly_better_one
    practice::test_another_move_is_judged_by_the_analysis_figures
    towers_bot::test_the_same_seed_gives_the_same_game
    winnable::test_the_same_seed_gives_the_same_deal
    journal_writer::test_closing_the_journal_asks_first_when_a_rewrite_is_kept_unsaved
    journal_screens::test_every_footer_of_the_journal_fits_80_columns
    viewer_app::test_branching_leaves_to_the_game_list_and_a_second_branch_asks_first
    troll_app::test_a_troll_from_the_launcher_is_named_by_its_options_numbered_not_dated_and_played_by_the_login
    journal_writer::test_a_draft_survives_undo_and_saving_the_entry_clears_it
    analysis::test_towers_a_move_that_loses_points_at_the_end_is_marked_by_the_exact_margin_lost
    cli::test_sim_bones_plays_the_general_against_random_play
    analysis::test_analysis_is_repeatable_and_the_budget_maps_to_samples_deterministically
    winnable::test_a_save_and_its_replay_deal_again_without_searching
    no_terminal::test_the_app_exits_when_its_output_breaks
    analysis_noise::test_towers_the_analyse_lines_name_each_side_and_the_end_says_whose_win
    box_identity::test_a_chat_line_naming_the_secret_or_markup_is_sent_as_text_and_reads_nothing
    journal_writer::test_a_draft_left_with_escape_and_q_is_kept_and_back_on_continue
    comments_app::test_a_replay_file_keeps_comments_in_memory_and_x_writes_a_copy_with_them
    troll_search::test_the_search_does_not_see_face_down_cards_or_the_deck_order
"""

# module name (tests/test_NAME.py) -> its lane; (module, test function) -> "slow" for those in SLOW
LANE_OF = {f"test_{name}": lane for lane, names in LANES.items() for name in names.split()}
SLOW_TESTS = {(f"test_{entry.split('::')[0]}", entry.split("::")[1]) for entry in SLOW.split()}


def lane_of(module: str, function: str) -> str | None:
    """The lane of a test function of a module (None: a module in no lane)."""
    return "slow" if (module, function) in SLOW_TESTS else LANE_OF.get(module)


def lanes_in(module: str) -> set[str]:
    """Every lane a module's tests are in."""
    if module not in LANE_OF:
        return set()
    return {LANE_OF[module]} | {"slow" for slow_module, _ in SLOW_TESTS if slow_module == module}


FIRST_RANK = {(f"test_{entry.split('::')[0]}", entry.split("::")[1]): rank for rank, entry in enumerate(FIRST.split())}


def first_rank(module: str, function: str) -> int:
    """Where a test is handed out: by its place in FIRST, and every other test after those, in order."""
    return FIRST_RANK.get((module, function), len(FIRST_RANK))
