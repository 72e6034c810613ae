"""``hermes-plugin-kit preflight PATH [--json] [--write] [--scan [--scan-with RELEASE]]
[--catalog-entry OUT [--repo URL] [--sha SHA] [--maintainer NAME] [--category NAME]]
[--ci-workflow]``."""

from __future__ import annotations

import argparse
import contextlib
import json
from pathlib import Path
from typing import Any

import yaml

from kit_devtools.cli._catalog import Entry, catalog_entry, render
from kit_devtools.cli._every_release import Across, across_releases
from kit_devtools.cli._output import emit, quiet_logs, refuse
from kit_devtools.cli._preflight import PROVIDES, Preflight, preflight_directory
from kit_devtools.cli._provides import set_provides
from kit_devtools.cli._report import Counts, counts, plugin_heading
from kit_devtools.cli._scan import Scan, scan, scan_findings
from kit_devtools.cli._upstream import available, upstream_findings
from kit_devtools.cli._workflow import ci_workflow
from kit_devtools.testing._requires_hermes import spec_of

__all__ = ["report_data", "run"]


def report_data(
    report: Preflight,
    written: Path | None = None,
    scanned: Scan | None = None,
    entry: tuple[Path, Entry] | None = None,
    across: Across | None = None,
) -> dict[str, Any]:
    """The report as JSON-ready data (what ``--json`` prints)."""
    tally = counts(report.findings)
    return {
        "plugin": str(report.directory),
        "key": report.key,
        "manifest": str(report.manifest_file) if report.manifest_file else None,
        "verdict_by": report.verdict_by,
        "declared": report.declared() if report.manifest else None,
        "registered": report.registered,
        "written": str(written) if written else None,
        "findings": [f.as_dict() for f in report.findings],
        "scan": _scan_data(scanned),
        "catalog_entry": None
        if entry is None
        else {"path": str(entry[0]), "checked_by": entry[1].checked_by, "entry": entry[1].data},
        "releases": None if across is None else across.runs,
        **tally._asdict(),
        "ok": tally.errors == 0,
    }


def _scan_data(scanned: Scan | None) -> dict[str, Any] | None:
    """What ``--scan`` found: the scanner, hermes' verdict and its answer, every finding."""
    if scanned is None:
        return None
    data = scanned.data or {}
    return {
        "python": scanned.scanner.python if scanned.scanner else None,
        "real": bool(scanned.scanner and scanned.scanner.mode == "plugin"),
        "problem": scanned.problem,
        **data,
    }


def _scan_lines(scan_data: dict[str, Any]) -> list[str]:
    if not scan_data.get("verdict"):
        return [f"install scan: none ({scan_data['problem']})"]
    allowed = scan_data["allowed"]
    answer = "installs" if allowed else "asks to confirm" if allowed is None else "refuses"
    lines = [
        f"install scan: {scan_data['verdict']} by {scan_data['by']} of hermes"
        f" {scan_data['release']}: `hermes plugins install` {answer}"
    ]
    lines += [
        f"  {f['severity']} {f['pattern']} {f['file']}:{f['line']}: {f['description']}"
        for f in scan_data["findings"]
    ]
    return lines


def _release_lines(runs: dict[str, dict[str, Any]]) -> list[str]:
    """What each release ``--every-release`` ran said, or why it did not run."""
    lines: list[str] = []
    for version, run in runs.items():
        if "problem" in run:
            lines.append(f"hermes {version}: not run ({run['problem']})")
            continue
        if run.get("installed"):
            lines.append(f"hermes {version}: the installed release, reported above")
            continue
        said = ", ".join(
            f"{label} {run[label]['errors']} error(s) {run[label]['warnings']} warning(s)"
            for label in ("preflight", "check")
        )
        lines.append(f"hermes {version} ({run['release']}): {said}")
    return lines


def _text(data: dict[str, Any]) -> str:
    verdict = f"preflight verdict of {data['verdict_by']}"
    lines = [plugin_heading(data["key"], "directory", data["plugin"], verdict)]
    if data["written"]:
        lines.append(f"wrote the provides_* lists of {data['written']}")
    for label in ("declared", "registered"):
        lists = data[label]
        if lists is not None:
            shown = "; ".join(f"{kind}: {', '.join(names) or '-'}" for kind, names in lists.items())
            lines.append(f"{label}: {shown}")
    lines.append("findings:" if data["findings"] else "findings: none")
    lines += [
        f"  {f['severity']} {f['rule']} {f['where']}: {f['message']} Fix: {f['fix']}"
        for f in data["findings"]
    ]
    if data["scan"] is not None:
        lines += _scan_lines(data["scan"])
    lines += _release_lines(data["releases"] or {})
    if data["catalog_entry"] is not None:
        written_entry = data["catalog_entry"]
        lines.append(
            f"catalogue entry: wrote {written_entry['path']}, read back by"
            f" {written_entry['checked_by']}"
        )
    lines.append(Counts(data["errors"], data["warnings"], data["conventions"]).line())
    return "\n".join(lines)


def _write(directory: Path) -> Path | str:
    """Set the ``provides_*`` lists from what the plugin registers: the file written, or
    why it could not be."""
    report = preflight_directory(directory)
    if report.manifest_file is None or report.registered is None:
        why = "; ".join(f.line() for f in report.findings if f.rule in {"HPK050", "HPK053"})
        return f"--write needs a plugin.yaml and a register() that runs: {why or 'no probe'}"
    changed = {
        key: report.registered[kind]
        for kind, key in PROVIDES
        if report.manifest.get(key) != report.registered[kind]
        and (key in report.manifest or report.registered[kind])
    }
    if changed:
        old = report.manifest_file.read_text(encoding="utf-8-sig")
        try:
            new = set_provides(old, changed)
        except ValueError as exc:
            return str(exc)
        report.manifest_file.write_text(new, encoding="utf-8")
    return report.manifest_file


def preflight(directory: Path) -> Preflight:
    """The kit's admission rules on every release, and the verdict of each of hermes' own
    admission commands the installed release has (``hermes plugins doctor`` from 0.20.1,
    ``hermes plugins validate`` from 0.21.3; :func:`available` asks the release itself):
    0.20.1's doctor checks neither the manifest's fields, ``requires_env``, undeclared
    registrations nor built-in names, so relaying it alone would drop validate's rules."""
    report = preflight_directory(directory)
    upstream = available()
    if upstream and report.directory.is_dir():
        report.verdict_by = " and ".join([report.verdict_by, *upstream])
        report.findings += upstream_findings(report.directory, upstream, report.key)
    return report


def run(args: argparse.Namespace) -> int:
    """Run ``preflight`` with parsed arguments; the exit status."""
    directory = Path(args.directory)
    if args.ci_workflow:
        spec = ""
        with contextlib.suppress(OSError, yaml.YAMLError, AttributeError):
            spec = spec_of(yaml.safe_load((directory / "plugin.yaml").read_text("utf-8-sig")))
        emit(ci_workflow(args.directory, spec), end="")
        return 0
    written: Path | None = None
    with quiet_logs():
        if args.write:
            result = _write(directory)
            if isinstance(result, str):
                return refuse(result)
            written = result
        report = preflight(directory)
        scanned = None
        if args.scan or args.scan_with:
            scanned = scan(directory, args.scan_with)
            report.findings += scan_findings(scanned, report.key)
        entry = None
        if args.catalog_entry:
            made = catalog_entry(report, args.repo, args.sha, args.maintainer, args.category)
            out = Path(args.catalog_entry)
            if out.is_dir():
                out = out / f"{made.data['name']}.yaml"
            try:
                out.write_text(render(made.data), encoding="utf-8")
            except OSError as exc:
                return refuse(f"--catalog-entry cannot write {out}: {exc}")
            report.findings += made.findings
            entry = (out, made)
        across = None
        if args.every_release:
            across = across_releases(directory, spec_of(report.manifest), report.findings)
            report.findings += across.findings
    data = report_data(report, written, scanned, entry, across)
    emit(json.dumps(data, indent=2, ensure_ascii=False) if args.json else _text(data))
    return 0 if data["ok"] else 1
