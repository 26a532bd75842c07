#!/usr/bin/env python3
"""Reads a rudpscope HTML report as XML (which also proves it well-formed:
the page is written as polyglot HTML/XML) and prints what the tests check
as JSON: connection rows, problems, and per timeline SVG its time axis
(tick x -> seconds), stall bands mapped back to seconds through that axis,
and its marks by class."""
import json
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def classes(el):
    return (el.get("class") or "").split()


def text_of(el):
    return "".join(el.itertext())


def panel_dir(svg, el, parents):
    p = parents.get(el)
    while p is not None:
        if "panel" in classes(p):
            return "c2s" if "c2s" in classes(p) else "s2c"
        p = parents.get(p)
    return None


def timeline(svg):
    parents = {c: p for p in svg.iter() for c in p}
    ticks = [(float(t.get("x")), float(text_of(t))) for t in svg.iter(SVG + "text") if "xtick" in classes(t)]
    (x0, s0), (x1, s1) = ticks[0], ticks[-1]
    per_px = (s1 - s0) / (x1 - x0)
    seconds = lambda x: s0 + (x - x0) * per_px
    stalls = []
    for r in svg.iter(SVG + "rect"):
        if "stall" in classes(r):
            x, w = float(r.get("x")), float(r.get("width"))
            stalls.append({"dir": panel_dir(svg, r, parents), "start_s": seconds(x), "end_s": seconds(x + w),
                           "width_px": w})
    marks = {}
    for el in svg.iter():
        c = classes(el)
        if el.tag in (SVG + "path", SVG + "rect", SVG + "circle") and ("retx" in c or "loss" in c):
            key = "%s %s" % (panel_dir(svg, el, parents), " ".join(c))
            marks[key] = marks.get(key, 0) + 1
    samples = {}
    for g in svg.iter(SVG + "g"):
        if "samples" in classes(g):
            samples[panel_dir(svg, g, parents)] = len(list(g))
    return {"conn": int(svg.get("data-conn")), "ticks": len(ticks), "seconds_per_px": per_px, "stalls": stalls,
            "marks": marks, "samples_drawn": samples, "bytes": len(ET.tostring(svg))}


def main(path):
    root = ET.parse(path).getroot()
    conns = [int(b.get("id")[len("conn-"):]) for b in root.iter("tbody") if (b.get("id") or "").startswith("conn-")]
    problems = [{"class": li.get("class"), "severity": float(li.get("data-severity")), "text": text_of(li)}
                for ol in root.iter("ol") if "problems" in classes(ol) for li in ol.iter("li")]
    timelines = [timeline(s) for s in root.iter(SVG + "svg")]
    title = text_of(root.find("head/title"))
    print(json.dumps({"title": title, "connections": conns, "problems": problems, "timelines": timelines}))


if __name__ == "__main__":
    main(sys.argv[1])
