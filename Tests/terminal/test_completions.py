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


def test_bash_offers_the_sandbox_profiles():
    # Issue 11 #29: `explorer sandbox --profile <TAB>` offered nothing.
    script = ROOT / "completions" / "explorer.bash"
    probe = (f'source "{script}"; COMP_WORDS=(explorer sandbox --profile ""); COMP_CWORD=3; '
             'COMP_LINE="explorer sandbox --profile "; COMP_POINT=${#COMP_LINE}; _explorer explorer "" --profile; '
             'echo "${COMPREPLY[@]}"')
    offered = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=30).stdout.split()
    assert sorted(offered) == ["levelup", "linku", "nova", "posture"]


def test_bash_offers_the_repl_options_at_the_top_level():
    # Issue 11 #29: `explorer --pro<TAB>` offered nothing: the REPL's options
    # belonged to a default subcommand the generated scripts leave out.
    script = ROOT / "completions" / "explorer.bash"

    def offered(*words):
        line = " ".join(("explorer",) + words)
        probe = (f'source "{script}"; COMP_WORDS=(explorer {" ".join(repr(w) for w in words)}); COMP_CWORD={len(words)}; '
                 f'COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}; _explorer explorer {words[-1]!r} {(("explorer",) + words)[-2]!r}; '
                 'echo "${COMPREPLY[@]}"')
        return subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=30).stdout.split()

    assert offered("--pro") == ["--profile"]
    assert offered("--profile", "") == ["levelup", "linku", "nova", "posture"]
    assert offered("--offline", "r") == ["repl", "run", "replay"]
