"""saves/ is a package of rooms of one concern: none reaches into another's private members (no
module of any folder imports another's private names: tests/test_layers.py)."""
from __future__ import annotations

import ast
from pathlib import Path

SAVES = Path(__file__).resolve().parent.parent / "saves"


def saves_modules() -> list[Path]:
    return sorted(SAVES.rglob("*.py"))


def test_saves_is_a_package_of_several_modules():
    assert len(saves_modules()) >= 6


def test_no_module_under_saves_is_over_400_lines():
    long = {path.relative_to(SAVES).as_posix(): count for path in saves_modules()
            if (count := len(path.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}


def test_the_hall_is_a_package_of_rooms_too():
    assert (SAVES / "hall" / "__init__.py").is_file() and len(list((SAVES / "hall").glob("*.py"))) >= 6


def test_saves_sets_no_attribute_the_engine_session_does_not_declare():
    """A session's labels (save_name, save_id, notice) are the engine Session's own, typed and
    documented: saves fills them in, and never needs a `type: ignore` to set one from outside."""
    from dicehall import engine

    session = engine.new_session("dicetower", seed=1)
    assert (session.labels.save_name, session.labels.save_id, session.labels.notice) == ("", "", None)
    ignored = [f"{path.relative_to(SAVES).as_posix()}:{number}" for path in saves_modules()
               for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
               if "type: ignore[attr-defined]" in line]
    assert ignored == []


def test_no_module_under_saves_reaches_into_another_objects_private_members():
    # `hosted._take(...)` from Hall into HallGame was one: what another class needs of an object is public
    found = []
    for path in saves_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
                    and isinstance(node.value, ast.Name) and node.value.id not in ("self", "cls")):
                found.append(f"{path.relative_to(SAVES).as_posix()}:{node.lineno}: {ast.unparse(node)}")
    assert found == []
