"""A page of another site against `gdef-run --web`, in a real Chromium (issue 32, item 1): a
cross-site `text/plain` form post whose body is itself a JSON request to /api/move. The server
must refuse it without ever reading that body as a request of its own."""
from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from web_support import TICTACTOE, WebRun, playwright_or_skip

playwright_api, CHROMIUM = playwright_or_skip()


def attacker_page(port: int) -> bytes:
    """A form that posts, as text/plain, `NAME=VALUE\\r\\n`: NAME and VALUE are chosen so that
    the whole body is a request playing place(1,1,X) (it cannot know the run's token)."""
    json_body = '{"move": "place(1,1,X)", "x": "="}'
    name = (f"POST /api/move HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(json_body)}\r\n\r\n" + '{"move": "place(1,1,X)", "x": "')
    script = (f"const form = document.forms[0]; const field = form.elements[0];"
              f"field.name = {json.dumps(name)}; field.value = '\"}}'; form.submit();")
    return (f'<!doctype html><form method="POST" action="http://127.0.0.1:{port}/api/move" enctype="text/plain">'
            f'<input type="hidden"></form><script>{script}</script>').encode()


@pytest.fixture
def attacker():
    """attacker(port) -> the address of a page on another origin that attacks that port."""
    servers = []

    def start(port: int) -> str:
        page = attacker_page(port)

        class Page(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, *args) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_port}/"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def test_a_cross_site_form_post_plays_no_move(attacker) -> None:
    run = WebRun(TICTACTOE)
    try:
        with playwright_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(attacker(run.port))
            page.wait_for_url(f"http://127.0.0.1:{run.port}/api/move", timeout=30_000)  # the form was sent
            answer = json.loads(page.locator("body").inner_text())
            browser.close()
        for _ in range(20):  # whatever the server does with that body, it has done it by now
            assert run.get("/api/state")[1]["moves"] == []
            time.sleep(0.1)
        assert answer["error"].startswith("requests from other sites (same-site) are refused")
    finally:
        run.close()
