"""WebSocket client for the env server's /ws session, on the Python standard library only.

    from ecomrlve import EcomRLVEWsClient
    with EcomRLVEWsClient("http://127.0.0.1:3141") as ws:
        r = ws.reset(env="PD", d=3, seed=7)
        while not r["done"]:
            r = ws.step(my_policy(r["observation"]))

One connection plays one episode at a time (a reset starts the next). Answers are flat like the
HTTP client's (observation["metadata"]'s fields beside observation, reward and done). The
WebSocket framing (RFC 6455: a masked text frame out, text/ping/close frames in) is written here
so the package needs nothing outside the standard library.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import ssl
import struct
import urllib.parse
from typing import Any, Dict, Optional, Union

from .http_client import EnvServerError, flat, reset_body

__all__ = ["EcomRLVEWsClient", "WebSocket"]

Action = Union[Dict[str, Any], str]


class WebSocket:
    """A minimal client WebSocket: text messages, answered pings, a clean close."""

    def __init__(self, url: str, headers: Optional[Dict[str, str]] = None, timeout: float = 60.0):
        u = urllib.parse.urlsplit(url)
        secure = u.scheme in ("wss", "https")
        port = u.port or (443 if secure else 80)
        sock = socket.create_connection((u.hostname, port), timeout=timeout)
        if secure:
            sock = ssl.create_default_context().wrap_socket(sock, server_hostname=u.hostname)
        self._sock = sock
        self._buf = b""
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {u.path or '/'} HTTP/1.1", f"Host: {u.hostname}:{port}", "Upgrade: websocket",
                 "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = self._read_until(b"\r\n\r\n").decode("latin-1")
        if not head.startswith("HTTP/1.1 101"):
            raise ConnectionError(f"WebSocket upgrade refused: {head.splitlines()[0] if head else 'no answer'}")

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self._buf:
            chunk = self._sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self._buf += chunk
        head, self._buf = self._buf.split(marker, 1)
        return head

    def _read(self, n: int) -> bytes:
        while len(self._buf) < n:
            chunk = self._sock.recv(max(65536, n - len(self._buf)))
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self._buf += chunk
        out, self._buf = self._buf[:n], self._buf[n:]
        return out

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        n = len(payload)
        if n < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | n)
        elif n < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, n)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self._sock.sendall(head + mask + masked)

    def send(self, text: str) -> None:
        self._send_frame(0x1, text.encode("utf-8"))

    def recv(self) -> str:
        """The next text message (fragments joined; pings answered)."""
        parts = []
        while True:
            b0, b1 = self._read(2)
            opcode, n = b0 & 0x0F, b1 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", self._read(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", self._read(8))
            payload = self._read(n)
            if opcode == 0x9:
                self._send_frame(0xA, payload)
            elif opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                raise ConnectionError(f"the WebSocket closed ({code} {payload[2:].decode('utf-8', 'replace')})")
            elif opcode in (0x0, 0x1):
                parts.append(payload)
                if b0 & 0x80:
                    return b"".join(parts).decode("utf-8")

    def close(self) -> None:
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        self._sock.close()


class EcomRLVEWsClient:
    """OpenEnv's /ws session: reset, step, state and MCP over one connection."""

    def __init__(self, base_url: str, timeout: float = 60.0, admin_token: Optional[str] = None):
        url = base_url.rstrip("/")
        url = "ws" + url[4:] if url.startswith("http") else url
        headers = {"Authorization": "Bearer " + admin_token} if admin_token else None
        self._ws = WebSocket(url + "/ws", headers=headers, timeout=timeout)
        self.episode_id: Optional[str] = None

    def _ask(self, message: Dict[str, Any]) -> Dict[str, Any]:
        self._ws.send(json.dumps(message))
        frame = json.loads(self._ws.recv())
        if frame["type"] == "error":
            d = frame["data"]
            raise EnvServerError(d.get("code", "ERROR"), d.get("message", ""), 0, d.get("episode_id"))
        return frame["data"]

    def reset(self, env: str = "PD", d: int = 0, seed: Optional[int] = None, run: Optional[str] = None,
              train_step: Optional[int] = None, group: Optional[str] = None, **extra: Any) -> Dict[str, Any]:
        data = reset_body(env, d, seed=seed, run=run, train_step=train_step, group=group, **extra)
        result = flat(self._ask({"type": "reset", "data": data}))
        self.episode_id = result["episode_id"]
        return result

    def step(self, action: Action) -> Dict[str, Any]:
        return flat(self._ask({"type": "step", "data": action}))

    def state(self) -> Dict[str, Any]:
        return self._ask({"type": "state"})

    def mcp(self, method: str, params: Optional[Dict[str, Any]] = None, request_id: int = 1) -> Dict[str, Any]:
        """One MCP JSON-RPC request on this connection's episode."""
        body: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            body["params"] = params
        return self._ask({"type": "mcp", "data": body})

    def close(self) -> None:
        self._ws.close()

    def __enter__(self) -> "EcomRLVEWsClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
