"""Attack 1 through the Action: the ``sarif-file`` copy writes only inside the workspace or
``$RUNNER_TEMP`` and never through, or over, a symlink the pull request committed."""

from __future__ import annotations

from pathlib import Path

from gha_helpers import ActionRunner


def test_committed_symlink_at_sarif_file_is_not_followed(action: ActionRunner,
                                                         tmp_path: Path) -> None:
    victim = tmp_path / "home-gitconfig"
    victim.write_text("[user]\n\tname = victim\n", encoding="utf-8")
    repo = action.fx.repo
    (repo.path / "adrguard.sarif").symlink_to(victim)
    repo.commit("plant a symlink")
    run = action(**{"sarif-file": "adrguard.sarif"})
    assert run.code == 0
    assert victim.read_text(encoding="utf-8") == "[user]\n\tname = victim\n"
    assert (repo.path / "adrguard.sarif").is_symlink()
    assert "::warning title=adrguard::cannot write sarif-file adrguard.sarif" in run.stdout
    assert "is a symlink" in run.stdout
    # the output names the SARIF file that was written (in the temporary folder)
    assert run.outputs["sarif-file"] == str(run.out_dir / "adrguard.sarif")


def test_sarif_file_outside_the_workspace_is_refused(action: ActionRunner,
                                                     tmp_path: Path) -> None:
    run = action(**{"sarif-file": "../escaped.sarif"})
    assert not (action.fx.repo.path.parent / "escaped.sarif").exists()
    assert "cannot write sarif-file ../escaped.sarif" in run.stdout and "outside" in run.stdout
    run = action(**{"sarif-file": str(tmp_path / "elsewhere.sarif")})
    assert not (tmp_path / "elsewhere.sarif").exists()


def test_sarif_file_through_a_symlinked_folder_is_refused(action: ActionRunner,
                                                          tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (action.fx.repo.path / "reports").symlink_to(outside)
    run = action(**{"sarif-file": "reports/adrguard.sarif"})
    assert list(outside.iterdir()) == []
    assert "outside" in run.stdout


def test_sarif_file_in_the_workspace_and_runner_temp_is_written(action: ActionRunner) -> None:
    run = action(**{"sarif-file": "out/adrguard.sarif"})
    written = action.fx.repo.path / "out" / "adrguard.sarif"
    assert run.outputs["sarif-file"] == str(written)
    assert '"version": "2.1.0"' in written.read_text(encoding="utf-8")
    temp = action.tmp / "run2" / "copy.sarif"  # $RUNNER_TEMP of the next run
    run = action(**{"sarif-file": str(temp)})
    assert run.outputs["sarif-file"] == str(temp) and temp.is_file()
