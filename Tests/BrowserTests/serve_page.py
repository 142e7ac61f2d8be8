#!/usr/bin/env python3
"""Drives the page of `reactor-inspect serve` in Debian's headless Chromium.

Checks what a person would see: the page draws the graph and hot table with
the expected node names, a count on the page grows while the app records
(--grows), and hostile names show as plain text without running anything
(--hostile NAME, repeatable). Takes a PNG screenshot. Prints one JSON object
with what it saw; exits 0 when every check passed, 1 otherwise, 3 when the
browser cannot be started.
"""
import argparse
import json
import sys
import time

try:
    from selenium import webdriver
    from selenium.common.exceptions import NoAlertPresentException, WebDriverException
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError as error:  # reported as "cannot start", never as a pass
    print(json.dumps({"error": f"selenium is missing: {error}"}))
    sys.exit(3)


def start_browser(chromium, driver, width, height):
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def wait_for(check, seconds, what, failures):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    failures.append(f"timed out after {seconds} s waiting for {what}")
    return None


def click_and_count(browser, argument, seconds, failures, click, missing, count, panel):
    """Runs the `click` script on `argument` (it returns whether it found what to
    click), then waits for the `count` script to count the panel's rows; None
    (and a failure) when there was nothing to click or the panel stayed empty."""
    if not browser.execute_script(click, argument):
        failures.append(missing)
        return None
    return wait_for(lambda: browser.execute_script(count, argument), seconds, panel, failures)


def number(text):
    try:
        return int(text.replace(",", ""))
    except ValueError:
        return None


def events(browser):
    """The events figure, once it shows a number."""
    return number(browser.execute_script("return document.getElementById('fig-events').textContent"))


# The nodes' boxes and the graph pane's, on the screen.
NODE_BOXES = """
if (!document.querySelector('#graph svg')) return null;
const pane = document.getElementById('graph').getBoundingClientRect();
const nodes = Array.from(document.querySelectorAll('#graph g.node[data-name]')).map(g => {
  const r = g.getBoundingClientRect();
  return {name: g.getAttribute('data-name'), left: r.left, top: r.top, right: r.right, bottom: r.bottom,
          focused: g.classList.contains('focused')};
});
return {pane: {left: pane.left, top: pane.top, right: pane.right, bottom: pane.bottom}, nodes: nodes,
        viewBox: document.querySelector('#graph svg').getAttribute('viewBox')};
"""


def navigate(browser, name, seconds, failures, seen):
    """Fit at load, zoom by the wheel (timed to the next frame), find `name`."""
    boxes = browser.execute_script(NODE_BOXES)
    if boxes is None:
        failures.append("no graph drawn to navigate")
        return
    pane = boxes["pane"]
    outside = [n["name"] for n in boxes["nodes"] if n["left"] < pane["left"] - 1 or n["right"] > pane["right"] + 1
               or n["top"] < pane["top"] - 1 or n["bottom"] > pane["bottom"] + 1]
    seen["fits"] = not outside
    if outside:
        failures.append(f"at load, nodes outside the graph pane: {outside[:5]}")
    zoom = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const pane = document.getElementById('graph'); const r = pane.getBoundingClientRect();"
        "const before = pane.querySelector('svg').viewBox.baseVal.width; const start = performance.now();"
        "pane.dispatchEvent(new WheelEvent('wheel', {deltaY: -500, clientX: r.left + r.width / 2,"
        " clientY: r.top + r.height / 2, bubbles: true, cancelable: true}));"
        "requestAnimationFrame(() => requestAnimationFrame(() => done({before: before,"
        " after: pane.querySelector('svg').viewBox.baseVal.width, milliseconds: performance.now() - start})));")
    seen["zoomMilliseconds"] = zoom["milliseconds"]
    if not zoom["after"] < zoom["before"]:
        failures.append(f"the wheel did not zoom in: viewBox width {zoom['before']} -> {zoom['after']}")
    browser.execute_script("document.getElementById('graph-fit').click();"
                           "const box = document.getElementById('graph-search'); box.value = arguments[0];"
                           "document.getElementById('graph-find').requestSubmit();", name)

    def centred():
        boxes = browser.execute_script(NODE_BOXES)
        if boxes is None:
            return None
        node = next((n for n in boxes["nodes"] if n["name"] == name and n["focused"]), None)
        if node is None:
            return None
        pane = boxes["pane"]
        dx = (node["left"] + node["right"]) / 2 - (pane["left"] + pane["right"]) / 2
        dy = (node["top"] + node["bottom"]) / 2 - (pane["top"] + pane["bottom"]) / 2
        width, height = pane["right"] - pane["left"], pane["bottom"] - pane["top"]
        return {"dx": dx, "dy": dy} if abs(dx) <= width * 0.1 and abs(dy) <= height * 0.1 else None
    seen["searchCentred"] = wait_for(centred, seconds, f"the search to centre {name!r}", failures) is not None


def layers(browser, seconds, failures, seen):
    """The graph opens as layer nodes; clicking one draws its computations instead."""
    count = "return document.querySelectorAll('#graph g.node[data-layer]').length"
    closed = wait_for(lambda: browser.execute_script(count), seconds, "layer nodes in the graph", failures)
    seen["layerNodes"] = closed
    if not closed:
        return
    before = browser.execute_script("return document.querySelectorAll('#graph g.node').length")
    browser.execute_script("const g = document.querySelector('#graph g.node[data-layer]');"
                           "g.dispatchEvent(new MouseEvent('click', {bubbles: true}));")
    seen["afterOpening"] = wait_for(lambda: (lambda n: n if n > before else None)(browser.execute_script(
        "return document.querySelectorAll('#graph g.node').length")), seconds, "the opened layer's nodes", failures)


def timeline(browser, seconds, failures, seen):
    """The tracks (one per thread); a click on the first run drawn selects it and sets the moment."""
    tracks = wait_for(lambda: browser.execute_script(
        "const t = Array.from(document.querySelectorAll('#timeline [data-track]')).map(e => e.getAttribute('data-track'));"
        "return t.length ? t : null"), seconds, "the timeline's tracks", failures) or []
    seen["timelineTracks"] = tracks
    # The first coloured pixel of the first track's outermost run row (below the flush lane).
    clicked = browser.execute_script(
        "const canvas = document.querySelector('#timeline [data-track] canvas'); if (!canvas) return false;"
        "const ratio = canvas.width / canvas.clientWidth; const y = 18;"
        "const row = canvas.getContext('2d').getImageData(0, Math.round(y * ratio), canvas.width, 1).data;"
        "for (let x = 0; x < canvas.width; x++) { if (row[4 * x + 3] > 0) {"
        " const r = canvas.getBoundingClientRect();"
        " canvas.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: r.left + x / ratio + 1, clientY: r.top + y}));"
        " return true; } } return false;")
    if not clicked:
        failures.append("the timeline drew no slice to click")
        return
    seen["timelineMoment"] = wait_for(lambda: browser.execute_script(
        "const t = document.getElementById('state-moment').textContent; return (t.startsWith('after ') || t.startsWith('at ')) ? t : null"),
        seconds, "the state at the clicked slice's end", failures)


def state_diff(browser, action, seconds, failures):
    """Clicks action N; the names of the state rows marked changed, once its state is shown."""
    clicked = browser.execute_script(
        "const li = Array.from(document.querySelectorAll('#actions li')).find(li =>"
        " li.querySelector('.ordinal') && li.querySelector('.ordinal').textContent === '#' + arguments[0]);"
        "if (!li) return false; li.click(); return true;", action)
    if not clicked:
        failures.append(f"no action #{action} to click")
        return None
    rows = wait_for(lambda: browser.execute_script(
        "if (!document.getElementById('state-moment').textContent.startsWith('after action:' + arguments[0] + ' ')) return null;"
        "const selected = Array.from(document.querySelectorAll('#actions li.selected .ordinal')).map(e => e.textContent);"
        "return {changed: Array.from(document.querySelectorAll('#state tbody tr.changed')).map(tr => tr.getAttribute('data-name')),"
        " selected: selected}", action), seconds, f"the state after action {action}", failures)
    if rows is None:
        return None
    if rows["selected"] != [f"#{action}"]:
        failures.append(f"the actions list highlights {rows['selected']}, not #{action}")
    return sorted(rows["changed"])


def filter_events(browser, terms, seconds, failures):
    """Types `terms` in the Events filter and presses Enter (no click): the
    result line the page shows then (count matched, or that none match) and
    how many lines it lists."""
    field = browser.find_element(By.ID, "events-filter")
    field.clear()
    field.send_keys(terms + Keys.ENTER)
    quoted = f"'{terms}'"
    shown = wait_for(lambda: browser.execute_script(
        "const t = document.getElementById('events-count').textContent;"
        "return (t.includes(' matching ' + arguments[0]) || t === 'no events match ' + arguments[0]) ? t : null",
        quoted), seconds, f"the Events filter's result for {terms!r}", failures)
    lines = browser.execute_script(
        "const t = document.getElementById('events').textContent; return t ? t.split('\\n').length : 0")
    return {"terms": terms, "result": shown, "lines": lines}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--name", action="append", default=[], help="a node name the page must show")
    parser.add_argument("--hostile", action="append", default=[], help="a hostile name that must show as text")
    parser.add_argument("--grows", action="store_true", help="the events count must grow")
    parser.add_argument("--focus", help="click this node in the graph: the why panel must explain it")
    parser.add_argument("--action", type=int, help="click action N: the state panel must list the nodes after it")
    parser.add_argument("--actions", action="store_true", help="report the actions list as shown (ordinal, name, detail)")
    parser.add_argument("--navigate", help="the graph fits the pane at load, a wheel zooms it, and the search box"
                        " finds this node and centres it")
    parser.add_argument("--empty", action="store_true", help="a trace with no event: the panes say so, no graph node")
    parser.add_argument("--timeline", action="store_true", help="report the timeline's tracks; click a run in it")
    parser.add_argument("--state-diff", type=int, help="click action N: report the state rows marked changed")
    parser.add_argument("--layers", action="store_true", help="a large graph opens as its layers: click one open")
    parser.add_argument("--measure", action="store_true", help="report the time to the graph's first draw and to a zoom")
    parser.add_argument("--filter", action="append", default=[],
                        help="type these terms in the Events filter, press Enter: report the result shown")
    parser.add_argument("--screenshot")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--driver", default="/usr/bin/chromedriver")
    parser.add_argument("--width", type=int, default=1440)
    parser.add_argument("--height", type=int, default=1100)
    parser.add_argument("--timeout", type=float, default=20)
    arguments = parser.parse_args()

    try:
        browser = start_browser(arguments.chromium, arguments.driver, arguments.width, arguments.height)
    except WebDriverException as error:
        print(json.dumps({"error": f"cannot start the browser: {error.msg}"}))
        return 3

    failures, seen = [], {}
    try:
        browser.set_page_load_timeout(arguments.timeout)
        browser.get(arguments.url)
        # A list, so that a count of 0 is a figure shown, not "not yet".
        shown = wait_for(lambda: (lambda n: None if n is None else [n])(events(browser)), arguments.timeout,
                         "the events figure", failures)
        first = shown[0] if shown else None
        seen["eventsFirst"] = first
        if arguments.empty:
            drawn = []
            seen["emptyPanes"] = wait_for(lambda: browser.execute_script(
                "const g = document.querySelector('#graph .empty'), t = document.querySelector('#timeline .empty');"
                "return g && t && !g.textContent.startsWith('Waiting') && !t.textContent.startsWith('Waiting') ?"
                " [g.textContent, t.textContent] : null"), arguments.timeout, "the empty panes' messages", failures)
        else:
            drawn = wait_for(lambda: browser.execute_script(
                "return Array.from(document.querySelectorAll('#graph g.node[data-name]')).map(g => g.getAttribute('data-name'))"),
                arguments.timeout, "graph nodes", failures) or []
        seen["graphNodes"] = len(drawn)
        if arguments.actions:
            seen["actions"] = wait_for(lambda: browser.execute_script(
                "const items = Array.from(document.querySelectorAll('#actions li')).filter(li => li.querySelector('.ordinal'));"
                "return items.length === 0 ? null : items.map(li => ({ordinal: li.querySelector('.ordinal').textContent,"
                " name: li.querySelector('.name').textContent, detail: li.querySelector('.detail').textContent}))"),
                arguments.timeout, "the actions list", failures) or []
        # Read in one script: the page redraws its tables on every update.
        hot = browser.execute_script(
            "return Array.from(document.querySelectorAll('#hot tbody td.name')).map(td => td.textContent)")
        seen["hotRows"] = len(hot)
        for name in arguments.name:
            if name not in drawn and not any(cell.startswith(name) for cell in hot):
                failures.append(f"the page does not show the node {name!r}")
        if arguments.grows and first is not None:
            later = wait_for(lambda: (lambda n: n if n is not None and n > first else None)(
                events(browser)), arguments.timeout, "the events count to grow", failures)
            seen["eventsLater"] = later
        if arguments.hostile:
            # Names are text: each is there as the page's text, no markup came from them, nothing ran.
            page_text = browser.execute_script("return document.body.textContent")
            for name in arguments.hostile:
                if name not in page_text and name not in drawn:
                    failures.append(f"the hostile name {name!r} is not shown as text")
            injected = browser.execute_script(
                "return document.querySelectorAll('main b, main script, main img, main iframe, #graph script').length")
            if injected:
                failures.append(f"{injected} elements were made from names")
            try:
                alert = browser.switch_to.alert
                failures.append(f"an alert ran: {alert.text!r}")
            except NoAlertPresentException:
                pass
        if arguments.focus:
            seen["whySteps"] = click_and_count(
                browser, arguments.focus, arguments.timeout, failures,
                click="const g = Array.from(document.querySelectorAll('#graph g.node')).find(g => g.getAttribute('data-name') === arguments[0]);"
                      "if (!g) return false; g.dispatchEvent(new MouseEvent('click', {bubbles: true})); return true;",
                missing=f"no graph node {arguments.focus!r} to click",
                count="return document.getElementById('why-target').textContent === arguments[0] ?"
                      " document.querySelectorAll('#why .why-step').length : 0",
                panel="the why panel")
        if arguments.action:
            seen["stateRows"] = click_and_count(
                browser, arguments.action, arguments.timeout, failures,
                click="const li = Array.from(document.querySelectorAll('#actions li')).find(li =>"
                      " li.querySelector('.ordinal') && li.querySelector('.ordinal').textContent === '#' + arguments[0]);"
                      "if (!li) return false; li.click(); return true;",
                missing=f"no action #{arguments.action} to click",
                count="return document.getElementById('state-moment').textContent.startsWith('after action:' + arguments[0]) ?"
                      " document.querySelectorAll('#state tbody tr').length : 0",
                panel="the state panel")
        if arguments.measure:
            seen["firstDrawMilliseconds"] = wait_for(lambda: browser.execute_script(
                "const at = document.getElementById('graph').getAttribute('data-drawn-at'); return at ? Number(at) : null"),
                arguments.timeout, "the graph's first draw", failures)
        if arguments.layers:
            layers(browser, arguments.timeout, failures, seen)
        if arguments.navigate:
            navigate(browser, arguments.navigate, arguments.timeout, failures, seen)
        if arguments.timeline:
            timeline(browser, arguments.timeout, failures, seen)
        if arguments.state_diff:
            seen["changedRows"] = state_diff(browser, arguments.state_diff, arguments.timeout, failures)
        if arguments.filter:
            seen["filters"] = [filter_events(browser, terms, arguments.timeout, failures) for terms in arguments.filter]
        # Let the figures settle after the last update before the picture.
        time.sleep(0.5)
        if arguments.screenshot:
            browser.save_screenshot(arguments.screenshot)
        severe = [entry["message"] for entry in browser.get_log("browser")
                  if entry["level"] == "SEVERE" and "favicon" not in entry["message"]]
        if severe:
            failures.append("console errors: " + " | ".join(severe[:5]))
    finally:
        browser.quit()
    print(json.dumps({"failures": failures, "seen": seen}))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
