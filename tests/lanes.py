"""The suite's lanes: every test module in exactly one, given to its tests as a pytest marker by
tests/conftest.py (bar the longest engine tests, named in SLOW, in the slow lane), so that
`pytest -m rules -n auto` runs the rules and the engine in about a minute (docs/testing.md).
tests/test_tooling.py fails when a module is in none, or in two."""
from __future__ import annotations

LANES = {
    # the games' rules, bots, analysis, records and sessions in memory, the layering: no terminal, no process
    "rules": """
        analysis analysis_bones analysis_noise analysis_paired analysis_troll bones_bot bones_rules
        catalogue chance cli_table contract dicetower_rules import_circles journal_odds journal_rules layers
        pinned_results result_hook session session_protocol tooling towers_bot towers_rules troll_bot troll_layout troll_rules tui_layout wager_bots
        wager_rules
    """,
    # the engine's long checks: searches and solvers run deep, property tests, sims of thousands of games
    "slow": """
        analysis_pool journal_long_games journal_reshuffle_bound properties troll_search troll_solver
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
    analysis_troll::test_ruling_a_pair_that_loses_at_once_when_another_does_not_is_a_blunder_at_every_budget
    bones_bot::test_the_general_beats_random_at_least_nine_games_in_ten_and_always_answers
    bones_rules::test_random_legal_playouts_end_and_the_fold_of_the_events_is_the_state
    contract::test_every_sim_is_found_through_the_catalogue_and_reports_its_game
    journal_odds::test_save_load_and_replay_fold_to_the_live_state
    towers_bot::test_every_level_plays_legal_commands_to_the_end
    towers_bot::test_medium_beats_random_play_every_game_with_colours_alternated
    towers_bot::test_the_same_seed_gives_the_same_game
    troll_bot::test_the_adviser_beats_random_play_clearly
    wager_bots::test_best_beats_the_other_styles_exactly
    wager_bots::test_the_exact_tables_agree_with_a_simulation
"""

# module name (tests/test_NAME.py) -> its lane; (module, test function) -> "slow" for those above
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
