"""The shell completion scripts in completions/ match what the binary generates."""
import os
import pathlib
import subprocess

import pytest

from support import BINARY, ROOT, run_explorer


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_script_is_fresh(shell):
    generated = run_explorer(["--generate-completion-script", shell], check=True, timeout=30).stdout
    committed = (ROOT / "completions" / f"explorer.{shell}").read_text()
    assert generated == committed, (
        f"completions/explorer.{shell} is stale; regenerate it (see completions/README.md)")


def completion_env(tmp_path):
    """`--profile` is completed by asking the binary (`explorer ---completion`),
    found on PATH as the scripts call it; profile files are looked up in a
    config folder of the test's own."""
    env = dict(os.environ, PATH=f"{pathlib.Path(BINARY).parent}:{os.environ['PATH']}", XDG_CONFIG_HOME=str(tmp_path / "config"))
    folder = tmp_path / "config" / "explorer" / "profiles"
    folder.mkdir(parents=True)
    (folder / "shop.yaml").write_text("explorer-profile: 1\nname: shop\nenvironments:\n  dev: http://127.0.0.1:9\n")
    (folder / "openapi.yaml").write_text("openapi: 3.0.3\n")  # beside a profile, not one
    return env


def test_bash_offers_the_sandbox_profiles(tmp_path):
    # Issue 11 #29: `explorer sandbox --profile <TAB>` offered nothing. The
    # sandbox serves the built-ins alone: profile files are not offered there.
    script = ROOT / "completions" / "explorer.bash"
    probe = (f'source "{script}"; COMP_WORDS=(explorer sandbox --profile ""); COMP_CWORD=3; '
             'COMP_LINE="explorer sandbox --profile "; COMP_POINT=${#COMP_LINE}; _explorer explorer "" --profile; '
             'echo "${COMPREPLY[@]}"')
    offered = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=30, env=completion_env(tmp_path)).stdout.split()
    assert sorted(offered) == ["levelup", "linku", "nova", "posture"]


def test_bash_offers_the_repl_options_at_the_top_level(tmp_path):
    # Issue 11 #29: `explorer --pro<TAB>` offered nothing: the REPL's options
    # belonged to a default subcommand the generated scripts leave out.
    script = ROOT / "completions" / "explorer.bash"

    def offered(*words):
        line = " ".join(("explorer",) + words)
        probe = (f'source "{script}"; COMP_WORDS=(explorer {" ".join(repr(w) for w in words)}); COMP_CWORD={len(words)}; '
                 f'COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}; _explorer explorer {words[-1]!r} {(("explorer",) + words)[-2]!r}; '
                 'echo "${COMPREPLY[@]}"')
        return subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=30, env=env).stdout.split()

    env = completion_env(tmp_path)
    assert offered("--pro") == ["--profile"]
    # Issue 13: the profile files `explorer profiles` finds, after the built-ins.
    assert offered("--profile", "") == ["levelup", "linku", "nova", "posture", "shop"]
    assert offered("--profile", "s") == ["shop"]
    assert offered("--offline", "r") == ["repl", "run", "replay"]
