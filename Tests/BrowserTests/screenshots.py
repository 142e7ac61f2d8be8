#!/usr/bin/env python3
"""Photographs the views of `reactor-inspect serve` for the docs (`make screenshots`):
records the todos sample with values and a 4-thread stress run, serves each,
and saves serve-page.png (the whole page on todos after action 3, `list` found),
serve-graph.png, serve-state.png and serve-timeline.png (the 4-thread run)."""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def serve(binary, trace):
    process = subprocess.Popen([os.path.join(binary, "reactor-inspect"), "serve", trace, "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:[0-9]+/", line)
    if not match:
        process.kill()
        sys.exit(f"serve printed no address: {line!r}")
    return process, match.group(0)


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1440,1600", "--hide-scrollbars", "--force-device-scale-factor=1"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def wait(driver, script, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if driver.execute_script(script):
            return
        time.sleep(0.1)
    sys.exit(f"timed out waiting for: {script}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True, help="the folder of the built reactor-inspect, todos and stress")
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    work = tempfile.mkdtemp()
    todos, stress = os.path.join(work, "todos.trace"), os.path.join(work, "stress.trace")
    subprocess.run([os.path.join(arguments.bin, "todos"), "--trace", todos, "--trace-values", "200"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run([os.path.join(arguments.bin, "stress"), "--computations", "60", "--writes", "400", "--threads", "4",
                    "--trace", stress], check=True, stdout=subprocess.DEVNULL)
    driver = browser()
    try:
        server, url = serve(arguments.bin, todos)
        try:
            driver.get(url)
            wait(driver, "return document.querySelectorAll('#graph g.node').length > 0 &&"
                         " document.querySelectorAll('#timeline [data-track]').length > 0")
            driver.execute_script("Array.from(document.querySelectorAll('#actions li')).find(li => li.querySelector('.ordinal')"
                                  " && li.querySelector('.ordinal').textContent === '#3').click();")
            wait(driver, "return document.getElementById('state-moment').textContent.startsWith('after action:3 ')")
            driver.execute_script("document.getElementById('graph-search').value = 'list';"
                                  "document.getElementById('graph-find').requestSubmit();")
            wait(driver, "return document.querySelectorAll('#why .why-step').length > 0")
            time.sleep(0.5)
            driver.save_screenshot(os.path.join(arguments.out, "serve-page.png"))
            driver.find_element("css selector", ".graph-panel").screenshot(os.path.join(arguments.out, "serve-graph.png"))
            driver.find_element("css selector", ".state-panel").screenshot(os.path.join(arguments.out, "serve-state.png"))
        finally:
            server.kill()
        server, url = serve(arguments.bin, stress)
        try:
            driver.get(url)
            wait(driver, "return document.querySelectorAll('#timeline [data-track]').length > 1")
            time.sleep(0.5)
            driver.find_element("css selector", ".timeline-panel").screenshot(os.path.join(arguments.out, "serve-timeline.png"))
        finally:
            server.kill()
    finally:
        driver.quit()
    print(f"wrote serve-page.png, serve-graph.png, serve-state.png and serve-timeline.png into {arguments.out}")


if __name__ == "__main__":
    main()
