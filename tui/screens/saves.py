"""The saves list: game, name, last played, progress; continue, view, export, rename, delete, recover."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from dicehall import saves
from dicehall.saves.box import on_box
from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text
from dicehall.engine.words import counted
from dicehall.saves.box import command_hint
from dicehall.tui.screens.base import KeyedScreen
from dicehall.tui.screens.dialogs import AskScreen, ConfirmScreen
from dicehall.tui.widgets import KeysFooter, Plain, StatusLine


TITLE_WIDTH = 16  # "Dead Man's Wager"; longer titles are cut to their first two words
NAME_WIDTH = 40  # engine.text.NAME_LIMIT: every name fits whole
COLUMNS = f"  {'GAME':<{TITLE_WIDTH}}  {'NAME':<{NAME_WIDTH}}  LAST PLAYED"  # over the rows, inside the list's frame


def short_title(title: str) -> str:
    """A game's title in the list's game column: "Angry Troll versus Magic Bridge" is "Angry Troll"."""
    return title if len(title) <= TITLE_WIDTH else " ".join(title.split()[:2])[:TITLE_WIDTH]


def save_row(info: saves.SaveInfo) -> Text:
    """A save in two lines: its game, whole name and when it was last played; then its progress,
    what it branched from, or what is wrong with it. Together they tell saves of one game apart."""
    when = datetime.fromtimestamp(info.last_played).strftime("%Y-%m-%d %H:%M")
    row = Text()
    row.append(f"{short_title(info.title):<{TITLE_WIDTH}}  ", style="bold")
    row.append(f"{clean_text(info.name, NAME_WIDTH):<{NAME_WIDTH}}  {when}\n")
    if info.problem:
        row.append("  DAMAGED", style="bold")
        row.append(" (r recovers the good part; the status line says what is wrong)")
    else:
        row.append(f"  {info.progress}" + (f"; {info.branch_of}" if info.branch_of else ""))
    return row


class SavesScreen(KeyedScreen):
    BINDINGS = [
        # priority: the focused list's own Enter would hide it from the footer
        Binding("enter", "continue_save", "Continue", priority=True),
        Binding("v", "view", "View"),
        Binding("e", "export", "Export"),
        # copies through the terminal (OSC 52), so over SSH it reaches the player's own clipboard
        Binding("y", "copy_record", "Copy", show=False, tooltip="copy the save's text record to your clipboard"),
        Binding("n", "rename", "Rename"),
        Binding("d", "delete", "Delete"),
        Binding("r", "recover", "Recover"),
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "back", "Back"),
    ]
    HELP_NOTES = ("Each save shows its game, its name and when it was last played, then how far it has got "
                  "(and, for a branch, where it branched from). n renames a save. e exports it as a replay "
                  "file, by default into the replays folder beside the saves. A damaged save can be "
                  "recovered (r): its good part is copied into a new save.")

    def help_title(self) -> str:
        return "Saved games"

    def compose(self) -> ComposeResult:
        yield Plain(Text("Saved games, most recently played first", style="bold"), classes="title")
        yield Plain(COLUMNS, id="saves-columns")
        yield OptionList(id="saves-list")
        yield StatusLine("Enter continues the save under the cursor")
        yield KeysFooter()

    def on_mount(self) -> None:
        said = self.reload()
        self.query_one(OptionList).focus()
        if self.infos and not said:
            self.announce(self.infos[0])

    def on_screen_resume(self) -> None:
        self.reload()

    announced: str | None = None  # the save whose keys the status line last named

    def reload(self) -> bool:
        """Read the list again, keeping the cursor on the same save (wherever the list put it);
        whether a damaged index of the list was said on the status line."""
        menu = self.query_one(OptionList)
        current = menu.highlighted_option.id if menu.highlighted_option is not None else None
        said: list[str] = []  # a damaged index of the list: one line, kept over the cursor's
        self.infos = saves.list_saves(warn=said.append)
        menu.clear_options()
        for info in self.infos:
            menu.add_option(Option(save_row(info), id=info.id))
        folder = "" if on_box() else f" (folder: {clean_text(str(saves.saves_dir()), 60)})"  # a box's paths are never shown
        title = (f"Saved games, most recently played first ({counted(len(self.infos), 'save')})" if self.infos
                 else f"No saved games yet{folder}")
        self.query_one(".title", Plain).show(Text(title, style="bold"))
        ids = [info.id for info in self.infos]
        if ids:
            menu.highlighted = ids.index(current) if current in ids else 0
            self.announced = ids[menu.highlighted]  # a reload is not a move: the status line keeps its answer
        if said:
            self.status(said[0])
        return bool(said)

    def current(self) -> saves.SaveInfo | None:
        index = self.query_one(OptionList).highlighted
        if index is None or not self.infos:
            self.status("no save is selected", error=True)
            return None
        return self.infos[index]

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Name the keys when the cursor moves to another save. A reload that leaves the cursor where
        it was says nothing, so the answer to the last key (a refusal, a result) stays readable."""
        info = self.infos[event.option_index] if event.option_index < len(self.infos) else None
        if info is not None and info.id != self.announced:
            self.announce(info)

    def announce(self, info: saves.SaveInfo) -> None:
        self.announced = info.id
        if info.problem:
            self.status(info.problem, error=True)
        else:
            self.status(f"{info.id}: Enter continues, v views, e exports, n renames, d deletes")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_continue_save()

    def action_continue_save(self) -> None:
        info = self.current()
        if info is None:
            return
        try:
            session = saves.open_save(info.id)
        except saves.SaveError as error:
            self.status(str(error), error=True)
            return
        if session.outcome is not None:
            saves.close_save(session)
            self.status("that game is over; here it is in the viewer")
            self.app.open_viewer(saves.load_readonly(info.id))
            return
        self.app.open_game(session)

    def action_view(self) -> None:
        info = self.current()
        if info is None:
            return
        try:
            self.app.open_viewer(saves.load_readonly(info.id))
        except saves.SaveError as error:
            self.status(str(error), error=True)

    def action_copy_record(self) -> None:
        from dicehall.replays.text import clipboard_text, copied_words

        info = self.current()
        if info is None:
            return
        try:
            text, what = clipboard_text(saves.load_readonly(info.id), hint=command_hint(f"export {info.id} --text -") or "")
        except DicehallError as error:
            self.status(f"not copied: {saves.error_line(error)}", error=True)
            return
        self.app.copy_to_clipboard(text)
        self.status(copied_words(text, what))

    def action_export(self) -> None:
        info = self.current()
        if info is None:
            return

        def export(target: Path | str, overwrite: bool) -> None:
            try:
                written = saves.export_save(info.id, target, overwrite=overwrite)
            except saves.ExportExists as exists:  # never replace a file without asking
                def replace(yes: bool | None) -> None:
                    if yes:
                        export(target, True)
                    else:
                        self.status("not exported: the file is kept as it was")

                self.app.push_screen(ConfirmScreen(f"{clean_text(str(exists.path), 200)} exists. Replace it?"), replace)
                return
            except (DicehallError, OSError) as error:
                self.status(f"not exported: {saves.error_line(error)}", error=True)
                return
            self.status(f"exported to {clean_text(str(written), 200)}")

        if on_box():  # a shared box: a file name in the player's own replays folder, never a path
            self.app.push_screen(AskScreen("Export as a replay file into your replays folder, by a file name "
                                           f"(Enter alone: {info.id}.dhr):", placeholder=f"{info.id}.dhr"),
                                 lambda name: None if name is None else export(name.strip(), False))
            return

        def chosen(path: str | None) -> None:
            if path and path.strip():
                export(saves.replays_dir() / Path(path.strip()).expanduser(), False)  # a relative path: in the replays folder

        default = saves.replays_dir() / f"{info.id}.dhr"
        shown = str(default)
        if default.is_relative_to(Path.home()):  # shorter to read: the input shows only so much
            shown = "~/" + str(default.relative_to(Path.home()))
        self.app.push_screen(AskScreen("Export as a replay file. Enter writes it into the replays folder; "
                                       "edit the path to write it elsewhere:", clean_text(shown, 200)), chosen)

    def action_rename(self) -> None:
        info = self.current()
        if info is None:
            return

        def named(name: str | None) -> None:
            if name is None:
                self.status("the name is kept")
                return
            try:
                new_name = saves.rename_save(info.id, name)
            except saves.SaveError as error:
                self.status(str(error), error=True)
                return
            self.reload()
            self.status(f"renamed to {new_name}")

        self.app.push_screen(AskScreen("New name for this save:", info.name,
                                       check=lambda text: None if saves.short_name(text) else "a save needs a name"), named)

    def action_delete(self) -> None:
        info = self.current()
        if info is None:
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                self.status("kept")
                return
            try:
                saves.delete_save(info.id)
            except saves.SaveError as error:  # e.g. played in another terminal: say why it is still here
                self.status(f"not deleted: {error}", error=True)
                return
            self.reload()
            self.status(f"deleted {info.name}")

        self.app.push_screen(ConfirmScreen(f"Delete the save {info.name!r} for good?"), answered)

    def action_recover(self) -> None:
        info = self.current()
        if info is None:
            return
        if not info.problem:
            self.status("this save is not damaged; nothing to recover", error=True)
            return
        try:
            new_id = saves.recover_save(info.id)
        except saves.SaveError as error:
            self.status(str(error), error=True)
            return
        self.reload()
        self.status(f"the good part is in the new save {new_id}; the damaged file is kept")

    def action_back(self) -> None:
        self.app.pop_screen()
