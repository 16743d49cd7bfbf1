"""One installed name: the repository's folders (engine/, tui/, saves/, replays/, dicehall/) install
as the one package `dicehall` (pyproject.toml's package-dir), and nothing else lands at the top of
site-packages, where names as generic as `tui` or `saves` would collide with other distributions."""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("engine", "tui", "saves", "replays")


def build_wheel(tmp_path: Path) -> Path:
    """The wheel built from a copy of the sources (a build in the repository would leave build/
    behind): by the build backend pyproject.toml names, called as any front end calls it, where the
    environment has the build tools (the test extras install them), so no index is asked and it takes
    a second; else by pip, in an isolated environment of its own."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for folder in (*FOLDERS, "dicehall"):
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path / "wheel"
    if importlib.util.find_spec("setuptools") and importlib.util.find_spec("wheel"):
        backend = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["build-backend"]
        command = [sys.executable, "-c", f"import {backend} as b, sys; b.build_wheel(sys.argv[1])", str(out)]
    else:
        command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(source)]
    subprocess.run(command, cwd=source, check=True, capture_output=True, timeout=300)
    (wheel,) = out.glob("dicehall-*.whl")
    return wheel


def test_the_wheel_installs_one_package_and_nothing_beside_it(tmp_path):
    names = zipfile.ZipFile(build_wheel(tmp_path)).namelist()
    tops = {name.split("/")[0] for name in names}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"dicehall"}
    assert len([top for top in tops if top.endswith(".dist-info")]) == 1
    assert all(top.startswith("dicehall-") for top in tops if top.endswith(".dist-info"))
    # every module of every folder is inside, under its new name, and the app's stylesheet with them
    expected = {f"dicehall/{path.relative_to(ROOT / folder).as_posix()}" if folder == "dicehall"
                else f"dicehall/{folder}/{path.relative_to(ROOT / folder).as_posix()}"
                for folder in (*FOLDERS, "dicehall") for path in (ROOT / folder).rglob("*.py")
                if "__pycache__" not in path.parts}
    assert len(expected) > 100 and expected - set(names) == set()
    assert "dicehall/tui/dicehall.tcss" in names and "dicehall/__main__.py" in names


def test_the_folders_are_imported_by_their_one_name_only():
    """From the repository root (where engine/ and tui/ could be imported by their bare folder names
    too, as the tests run), every module imports through dicehall: a bare `import engine` left
    anywhere would load a second copy of the engine, with its own classes."""
    code = ("import importlib, pkgutil, sys, dicehall\n"
            "for top in ('dicehall', 'dicehall.engine', 'dicehall.tui', 'dicehall.saves', 'dicehall.replays'):\n"
            "    package = importlib.import_module(top)\n"
            "    for found in pkgutil.walk_packages(package.__path__, top + '.'):\n"
            "        importlib.import_module(found.name)\n"
            "print(sorted(n for n in sys.modules if n.split('.')[0] in ('engine', 'tui', 'saves', 'replays')))\n"
            "print(len([n for n in sys.modules if n.startswith('dicehall.')]))\n"
            "print(sys.modules['dicehall.engine'].__file__)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            check=True)
    bare, count, engine_file = result.stdout.split("\n")[:3]
    assert bare == "[]"
    assert int(count) > 100  # every module was walked
    assert Path(engine_file) == ROOT / "engine" / "__init__.py"
