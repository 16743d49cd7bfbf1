"""The viewer's image key (issue #32): `e` writes the screen as it is shown now (its size, the
analysis and the reveal as they are) as an SVG into the player's replays folder, under a free name
made from the game's (NAME-event-N.svg, then NAME-event-N-2.svg, ...). No path is asked for, on a
box or off it: the status line says where the file went, in one line, and on a box, where the
player cannot reach the folder, the ssh command that brings this event's image (at 80x24) to their machine."""
from __future__ import annotations

from typing import TYPE_CHECKING

from pathlib import Path

from dicehall.engine.errors import DicehallError
from dicehall.engine.text import clean_text

if TYPE_CHECKING:
    from dicehall.engine import Session
    from dicehall.tui.screens.base import KeyedScreen as ViewerBase
else:
    ViewerBase = object  # a mixin: the viewer gives the rest (the type checker sees it)


def shown_path(path: Path) -> str:
    """A path as the status line says it: the home folder as ~, so it fits one line at 80 columns."""
    home = Path.home()
    return clean_text(f"~/{path.relative_to(home)}" if path.is_relative_to(home) else str(path), 300)


class PicturedViewer(ViewerBase):
    """The image key of the viewer (mixed into ViewerScreen, which binds it)."""

    if TYPE_CHECKING:  # the viewer's
        session: Session
        position: int
        kept_status: str | None  # AnalysedViewer's: e's answer, which the analysis's end leaves shown

    def action_image(self) -> None:
        from dicehall import saves
        from dicehall.saves.box import command_hint, on_box
        from dicehall.saves.images import image_name, write_new_image
        from dicehall.tui.svg import image_title, screen_svg

        session = self.session
        svg = screen_svg(self.app, image_title(session.game.TITLE, self.position, len(session.events)))
        name = image_name(session.labels.save_id or session.labels.save_name or session.game.ID, self.position)
        try:
            path = write_new_image(svg, name)
        except (DicehallError, OSError) as error:
            self.status(f"no image written: {saves.error_line(error)}", error=True)
            return
        if not on_box():
            self.kept_status = f"image written: {shown_path(path)}"
        else:  # the folder is out of the player's reach on a box: an image of this event leaves over ssh
            hint = command_hint(f"export {session.labels.save_id} --svg --at {self.position} -o -") if session.labels.save_id else None
            self.kept_status = f"image written: {path.name} in your replays folder" + (f"; to your machine: {hint} > {path.name}" if hint else "")
        self.status(self.kept_status)
