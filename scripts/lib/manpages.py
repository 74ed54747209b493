#!/usr/bin/env python3
"""Man pages for linkstr from its command definitions (`linkstr --experimental-dump-help`).

usage: manpages.py BINARY OUTDIR VERSION

Writes OUTDIR/linkstr.1 and one page per subcommand (linkstr-session-create.1, ...), in man(7).
"""
import datetime
import json
import os
import subprocess
import sys

binary, outdir, version = sys.argv[1], sys.argv[2], sys.argv[3]
tool = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout)
date = datetime.date.today().isoformat()
SPECIAL = {"…": "\\&...", "≤": "\\(<=", "≥": "\\(>=", "→": "\\(->", "—": "\\(em", "–": "\\(en", "●": "*", "×": "\\(mu",
           "‘": "'", "’": "'", "“": '"', "”": '"'}


def esc(text):
    out = []
    for ch in text.replace("\\", "\\e"):
        if ch in SPECIAL:
            out.append(SPECIAL[ch])
        elif ord(ch) > 127:
            out.append("?")
        elif ch == "-":
            out.append("\\-")
        else:
            out.append(ch)
    lines = "".join(out).split("\n")
    return "\n".join(("\\&" + l) if l.startswith((".", "'")) else l for l in lines)


def option_label(arg):
    names = []
    for n in arg.get("names", []):
        names.append(("-" if n["kind"] == "short" else "--") + n["name"])
    label = ", ".join("\\fB" + esc(n) + "\\fR" for n in names)
    if arg["kind"] == "option":
        label += " \\fI" + esc(arg.get("valueName", "value")) + "\\fR"
    return label


def page(command, path):
    name = "-".join(path)
    title = " ".join(path)
    subs = [s for s in command.get("subcommands", []) or [] if s.get("shouldDisplay", True)]
    args = [a for a in command.get("arguments", []) or [] if a.get("shouldDisplay", True)]
    positional = [a for a in args if a["kind"] == "positional"]
    options = [a for a in args if a["kind"] != "positional"]
    lines = [f'.TH {esc(name.upper())} 1 "{date}" "linkstr {esc(version)}" "linkstr manual"',
             ".SH NAME", f"{esc(name)} \\- {esc(command.get('abstract', ''))}",
             ".SH SYNOPSIS", f".B {esc(title)}"]
    synopsis = []
    if subs:
        synopsis.append("\\fIsubcommand\\fR")
    if options:
        synopsis.append("[\\fIoptions\\fR]")
    for p in positional:
        v = "\\fI" + esc(p.get("valueName", "value")) + "\\fR" + (" ..." if p.get("isRepeating") else "")
        synopsis.append(f"[{v}]" if p.get("isOptional") else v)
    if synopsis:
        lines.append(" ".join(synopsis))
    lines += [".SH DESCRIPTION", esc(command.get("abstract", ""))]
    exit_status = []
    if command.get("discussion"):
        # A paragraph that starts "Exit status:" gets its own section, one code per entry.
        for paragraph in command["discussion"].split("\n\n"):
            if paragraph.startswith("Exit status:"):
                exit_status = [p.strip() for p in paragraph[len("Exit status:"):].split(". ") if p.strip()]
            else:
                lines += [".PP", esc(paragraph)]
    if positional:
        lines.append(".SH ARGUMENTS")
        for p in positional:
            lines += [".TP", "\\fI" + esc(p.get("valueName", "value")) + "\\fR", esc(p.get("abstract", "") or "")]
    if options:
        lines.append(".SH OPTIONS")
        for o in options:
            lines += [".TP", option_label(o), esc(o.get("abstract", "") or "")]
    if exit_status:
        lines.append('.SH "EXIT STATUS"')
        for entry in exit_status:
            code, _, meaning = entry.partition(": ")
            if code.startswith("0 on success"):
                lines += [".TP", "\\fB0\\fR", "success"]
                continue
            lines += [".TP", "\\fB" + esc(code) + "\\fR", esc(meaning.rstrip("."))]
    if subs:
        lines.append(".SH SUBCOMMANDS")
        for s in subs:
            lines += [".TP", "\\fB" + esc(s["commandName"]) + "\\fR", esc(s.get("abstract", ""))]
    see = ["linkstr (1)"] if len(path) > 1 else []
    see += ["-".join(path + [s["commandName"]]) + " (1)" for s in subs]
    see.append("linkstr (5)")
    lines += [".SH SEE ALSO", ",\n".join(".BR " + esc(s) for s in see)]
    with open(os.path.join(outdir, name + ".1"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    for s in subs:
        page(s, path + [s["commandName"]])


os.makedirs(outdir, exist_ok=True)
page(tool["command"], ["linkstr"])
