"""HTTP client for the EcomRLVE env server (OpenEnv shape). Python standard library only.

    from ecomrlve import EcomRLVEClient
    env = EcomRLVEClient("http://127.0.0.1:3141")
    r = env.reset(env="PD", d=3, seed=7, run="grpo-run-1", train_step=0)   # episode_id, token, observation, …
    while not r["done"]:
        action = my_policy(r["observation"])                    # a dict, or the model's raw JSON text
                                                                # (only the reset's observation has "tools")
        r = env.step(r["episode_id"], action)
    print(r["reward"], r["termination"])

The server answers reset and step in OpenEnv's shape ({observation, reward, done}, with ours in
observation["metadata"]); this client hands them back flat: the metadata's fields (episode_id,
token, env, d, seed, run, train_step, group, termination, reward_parts) beside observation, reward and done.
`run`, `train_step` and `group` are stored with the episode: rollouts sharing (run, group), by
default (run, train_step, env, d, seed), form one GRPO group in the inspector.
Errors raise EnvServerError with the server's code and message.
"""

from __future__ import annotations

import http.client
import json
import urllib.parse
from typing import Any, Dict, Optional, Union

__all__ = ["EcomRLVEClient", "EnvServerError", "flat", "reset_body"]

Action = Union[Dict[str, Any], str]


def reset_body(env: str, d: int, **fields: Any) -> Dict[str, Any]:
    """A reset request: env and d, and every other field that is set (seed, run, train_step, group, …)."""
    return {"env": env, "d": d, **{k: v for k, v in fields.items() if v is not None}}


def flat(result: Dict[str, Any]) -> Dict[str, Any]:
    """An OpenEnv reset/step answer with observation["metadata"]'s fields moved beside it."""
    observation = dict(result["observation"])
    metadata = observation.pop("metadata", {})
    return {**metadata, "observation": observation, "reward": result["reward"], "done": result["done"]}


class EnvServerError(Exception):
    """The server refused a request: `code` (e.g. UNKNOWN_EPISODE, BAD_TOKEN), `status`, `episode_id`."""

    def __init__(self, code: str, message: str, status: int, episode_id: Optional[str]):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
        self.episode_id = episode_id


class EcomRLVEClient:
    """One persistent HTTP connection to an env server; any number of episodes through it."""

    def __init__(self, base_url: str, timeout: float = 60.0, admin_token: Optional[str] = None):
        url = urllib.parse.urlsplit(base_url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ValueError(f"base_url must look like http://host:port, got {base_url!r}")
        self._scheme = url.scheme
        self._host = url.hostname
        self._port = url.port
        self._prefix = url.path.rstrip("/")
        self._timeout = timeout
        self._admin_token = admin_token
        self._tokens: Dict[str, str] = {}
        self._conn: Optional[http.client.HTTPConnection] = None

    # ----- OpenEnv routes -----

    def reset(self, env: str = "PD", d: int = 0, seed: Optional[int] = None, run: Optional[str] = None,
              episode_id: Optional[str] = None, train_step: Optional[int] = None, group: Optional[str] = None,
              **extra: Any) -> Dict[str, Any]:
        """Starts an episode. The seed (chosen by the server when None) is echoed in the result."""
        body = reset_body(env, d, seed=seed, run=run, episode_id=episode_id, train_step=train_step, group=group,
                          **extra)
        result = flat(self._call("POST", "/reset", body))
        self._tokens[result["episode_id"]] = result["token"]
        return result

    def step(self, episode_id: str, action: Action) -> Dict[str, Any]:
        """One turn: observation, reward (0 until the end), done, termination, reward_parts."""
        return flat(self._call("POST", "/step", {"episode_id": episode_id, "action": action}, self._tokens.get(episode_id)))

    def state(self, episode_id: str) -> Dict[str, Any]:
        token = self._admin_token or self._tokens.get(episode_id)
        return self._call("GET", "/state?episode_id=" + urllib.parse.quote(episode_id), None, token)

    def schema(self, env: Optional[str] = None) -> Dict[str, Any]:
        return self._call("GET", "/schema" + ("?env=" + urllib.parse.quote(env) if env else ""))

    def metadata(self) -> Dict[str, Any]:
        return self._call("GET", "/metadata")

    def health(self) -> Dict[str, Any]:
        return self._call("GET", "/health")

    def info(self) -> Dict[str, Any]:
        """Ours: mode, catalog, envs, limits, active sessions."""
        return self._call("GET", "/info")

    def mcp(self, method: str, params: Optional[Dict[str, Any]] = None, token: Optional[str] = None,
            request_id: int = 1) -> Dict[str, Any]:
        """One MCP JSON-RPC request (POST /mcp); the episode token scopes the tools."""
        body: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            body["params"] = params
        return self._call("POST", "/mcp", body, token)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> "EcomRLVEClient":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ----- transport -----

    def _connection(self) -> http.client.HTTPConnection:
        if self._conn is None:
            cls = http.client.HTTPSConnection if self._scheme == "https" else http.client.HTTPConnection
            self._conn = cls(self._host, self._port, timeout=self._timeout)
        return self._conn

    def _call(self, method: str, path: str, body: Any = None, token: Optional[str] = None) -> Dict[str, Any]:
        headers = {"accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["content-type"] = "application/json"
        if token:
            headers["authorization"] = "Bearer " + token
        # A kept-alive connection the server has since closed fails before the request is read;
        # only then is it safe to send again, on a fresh connection.
        for attempt in (1, 2):
            reused = self._conn is not None
            conn = self._connection()
            try:
                conn.request(method, self._prefix + path, body=data, headers=headers)
                response = conn.getresponse()
                raw = response.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if not reused or attempt == 2:
                    raise
        text = raw.decode("utf-8")
        try:
            payload = json.loads(text)
        except ValueError:
            raise EnvServerError("INVALID_RESPONSE", f"{method} {path} answered {response.status} with non-JSON: {text[:200]}",
                                 response.status, None) from None
        if response.status >= 400:
            err = payload.get("error") or {}
            if not isinstance(err, dict):
                err = {}
            raise EnvServerError(err.get("code", "HTTP_ERROR"), err.get("message", text), response.status, payload.get("episode_id"))
        return payload
