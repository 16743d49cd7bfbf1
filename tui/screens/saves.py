"""The saves list: game, name, progress, last played; continue, view, export, delete, recover."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, OptionList
from textual.widgets.option_list import Option

import saves
from engine.text import clean_text
from tui.screens.base import KeyedScreen
from tui.screens.dialogs import AskScreen, ConfirmScreen
from tui.widgets import Plain, StatusLine


class SavesScreen(KeyedScreen):
    BINDINGS = [
        Binding("enter", "continue_save", "Continue"),
        Binding("v", "view", "View"),
        Binding("e", "export", "Export"),
        Binding("d", "delete", "Delete"),
        Binding("r", "recover", "Recover"),
        Binding("question_mark", "help", "Help"),
        Binding("q,escape", "back", "Back"),
    ]
    HELP_NOTES = "A damaged save can be recovered (r): its good part is copied into a new save."

    def compose(self) -> ComposeResult:
        yield Plain(Text("Saved games (most recent first)", style="bold"), classes="title")
        yield OptionList(id="saves-list")
        yield StatusLine("Enter continues the save under the cursor")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        self.infos = saves.list_saves()
        menu = self.query_one(OptionList)
        highlighted = menu.highlighted
        menu.clear_options()
        for info in self.infos:
            when = datetime.fromtimestamp(info.last_played).strftime("%m-%d %H:%M")
            line = Text()
            line.append(f"{info.title[:10]:<10} ", style="bold")
            line.append(f"{info.name[:24]:<24} ")
            line.append(f"{((info.problem and 'DAMAGED') or info.progress)[:26]:<26} {when}")
            menu.add_option(Option(line, id=info.id))
        title = "Saved games (most recent first)" if self.infos else f"No saved games yet (folder: {clean_text(str(saves.saves_dir()), 60)})"
        self.query_one(".title", Plain).show(Text(title, style="bold"))
        if self.infos:
            menu.highlighted = min(highlighted or 0, len(self.infos) - 1)

    def current(self) -> saves.SaveInfo | None:
        index = self.query_one(OptionList).highlighted
        if index is None or not self.infos:
            self.status("no save is selected", error=True)
            return None
        return self.infos[index]

    pending_notice: str | None = None  # a result to keep on the status line through a list reload

    def say_after_reload(self, message: str) -> None:
        """Say this now and again when the list, reloaded as the dialog closes, re-announces its row."""
        self.pending_notice = message
        self.status(message)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        notice = self.pending_notice
        if notice:
            self.pending_notice = None
            self.status(notice)
            return
        info = self.infos[event.option_index] if event.option_index < len(self.infos) else None
        if info and info.problem:
            self.status(info.problem[:150], error=True)
        elif info:
            self.status(f"{info.id}: Enter continues, v views, e exports, d deletes")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.action_continue_save()

    def action_continue_save(self) -> None:
        from tui.screens.games import game_screen
        from tui.screens.viewer import ViewerScreen

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
            self.app.push_screen(ViewerScreen(saves.load_readonly(info.id)))
            return
        self.app.push_screen(game_screen(session))

    def action_view(self) -> None:
        from tui.screens.viewer import ViewerScreen

        info = self.current()
        if info is None:
            return
        try:
            self.app.push_screen(ViewerScreen(saves.load_readonly(info.id)))
        except saves.SaveError as error:
            self.status(str(error), error=True)

    def action_export(self) -> None:
        info = self.current()
        if info is None:
            return

        def export(target: Path, overwrite: bool) -> None:
            try:
                written = saves.export_save(info.id, target, overwrite=overwrite)
            except saves.ExportExists as exists:  # never replace a file without asking
                def replace(yes: bool | None) -> None:
                    if yes:
                        export(target, True)
                    else:
                        self.say_after_reload("not exported: the file is kept as it was")

                self.app.push_screen(ConfirmScreen(f"{clean_text(str(exists.path), 200)} exists. Replace it?"), replace)
                return
            except (saves.SaveError, OSError) as error:
                self.status(f"not exported: {clean_text(str(error), 200)}", error=True)
                return
            self.say_after_reload(f"exported to {clean_text(str(written), 200)}")

        def chosen(path: str | None) -> None:
            if path and path.strip():
                export(Path(path.strip()).expanduser(), False)

        self.app.push_screen(AskScreen("Export as a replay file:", f"{info.id}.dhr"), chosen)

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
            except saves.SaveError as error:
                self.status(str(error), error=True)
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
