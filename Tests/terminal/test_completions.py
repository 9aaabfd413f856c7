"""The shell completion scripts in completions/ match what the binary generates."""
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = os.environ.get("EXPLORER_BIN", str(ROOT / ".build" / "debug" / "explorer"))


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_script_is_fresh(shell):
    generated = subprocess.run([BINARY, "--generate-completion-script", shell],
                               check=True, capture_output=True, text=True, timeout=30).stdout
    committed = (ROOT / "completions" / f"explorer.{shell}").read_text()
    assert generated == committed, (
        f"completions/explorer.{shell} is stale; regenerate it (see completions/README.md)")
