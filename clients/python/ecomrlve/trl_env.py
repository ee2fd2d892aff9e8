"""A TRL environment class: `GRPOTrainer(..., environment_factory=...)` makes one per rollout.

TRL's environment integration treats an environment as a stateful collection of tools: it
calls `reset(**row)` before each generation and puts the string it returns into the prompt,
exposes every public method (not `reset`, not `_`-prefixed) as a tool whose schema comes from
the method's signature and Google-style docstring, and reads the episode's reward from
`get_reward()` (or from reward functions, which get the instances as `environments=`).

    from ecomrlve import EcomRLVEToolEnv, env_reward
    trainer = GRPOTrainer(model=..., train_dataset=dataset,  # rows may carry env/d/seed/run/train_step/group
                          environment_factory=lambda: EcomRLVEToolEnv("http://127.0.0.1:3141", env="PD", d=3),
                          reward_funcs=env_reward)

The tools are the episode's MCP tools (POST /mcp): the env's tools (named with "_" for "."),
`reply` and `answer`. Each call is one turn; it returns the turn's result as JSON text.
"""

from __future__ import annotations

import inspect
import json
import types
from typing import Any, Dict, List, Optional

from .http_client import EcomRLVEClient

__all__ = ["EcomRLVEToolEnv", "env_reward"]

JSON_TYPES = {"string": str, "integer": int, "number": float, "boolean": bool, "array": list, "object": dict}
RESET_KEYS = ("d", "seed", "run", "train_step", "group")


def _method_name(tool: str) -> str:
    return tool.replace(".", "_").replace("-", "_")


def _annotation(schema: Dict[str, Any]) -> Any:
    kind = schema.get("type")
    return JSON_TYPES.get(kind, Any) if isinstance(kind, str) else Any


class EcomRLVEToolEnv:
    """One EcomRLVE episode per reset, played through its MCP tools."""

    def __init__(self, base_url: str = "http://127.0.0.1:3141", env: str = "PD", d: int = 0,
                 seed: Optional[int] = None, run: Optional[str] = None, train_step: Optional[int] = None,
                 group: Optional[str] = None, timeout: float = 60.0):
        self._client = EcomRLVEClient(base_url, timeout=timeout)
        # run, train_step and group are stored with each episode: the inspector's GRPO groups are
        # (run, group), by default (run, train_step, env, d, seed). Set `train_step` as training goes.
        self._defaults: Dict[str, Any] = {"env": env, "d": d, "seed": seed, "run": run, "group": group}
        self.train_step = train_step
        self._token: Optional[str] = None
        self._reward = 0.0
        self._done = False
        self._ids = 0
        self._instructions = self._rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                                      "clientInfo": {"name": "ecomrlve-trl", "version": "1"}})["instructions"]
        self._tool_names: List[str] = []
        for spec in self._rpc("tools/list", {"env": env})["tools"]:
            name = _method_name(spec["name"])
            setattr(self, name, types.MethodType(self._tool_function(spec, name), self))
            self._tool_names.append(name)

    # ----- what TRL calls -----

    def reset(self, **kwargs: Any) -> str:
        """Starts an episode (a dataset row's env/d/seed/run/train_step/group override the defaults); returns the prompt."""
        if "env" in kwargs and kwargs["env"] != self._defaults["env"]:
            raise ValueError(f"this instance plays {self._defaults['env']} (its tools are that env's), not {kwargs['env']}")
        defaults = {**self._defaults, "train_step": self.train_step}
        params = {k: kwargs.get(k, defaults[k]) for k in ("env",) + RESET_KEYS}
        created = self._rpc("openenv/session/create", {k: v for k, v in params.items() if v is not None})
        metadata = created["observation"]["metadata"]
        # what the server recorded the episode under (episode_id, env, d, run, train_step, group, …)
        self.metadata: Dict[str, Any] = {k: v for k, v in metadata.items() if k != "token"}
        self._token = metadata["token"]
        self.episode_id: str = metadata["episode_id"]
        self._reward, self._done = 0.0, bool(created["done"])
        return f"{self._instructions}\n\nCustomer: {created['observation']['customerMessage']}"

    def get_reward(self) -> float:
        """The episode's reward: 0 until it ends, then the gym's verifiable reward."""
        return self._reward

    # ----- internals -----

    @property
    def done(self) -> bool:
        return self._done

    @property
    def tool_names(self) -> List[str]:
        return list(self._tool_names)

    def _rpc(self, method: str, params: Dict[str, Any]) -> Dict[str, Any]:
        self._ids += 1
        answer = self._client.mcp(method, params, token=self._token, request_id=self._ids)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']['message']}")
        return answer["result"]

    def _call(self, tool: str, arguments: Dict[str, Any]) -> str:
        if self._token is None:
            raise RuntimeError("reset() first")
        result = self._rpc("tools/call", {"name": tool, "arguments": arguments})
        if not result.get("isError"):
            turn = result["structuredContent"]
            self._done, self._reward = turn["done"], turn["reward"]
        return result["content"][0]["text"]

    def _tool_function(self, spec: Dict[str, Any], name: str):
        """A function with the tool's signature and a Google-style docstring (what TRL reads)."""
        schema = spec.get("inputSchema") or {}
        props: Dict[str, Dict[str, Any]] = schema.get("properties") or {}
        required = set(schema.get("required") or [])
        ordered = [p for p in props if p in required] + [p for p in props if p not in required]
        params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        for p in ordered:
            default = inspect.Parameter.empty if p in required else None
            params.append(inspect.Parameter(p, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default,
                                            annotation=_annotation(props[p])))
        args_doc = "\n".join(
            f"    {p}: {props[p].get('description') or json.dumps(props[p])[:200]}" for p in ordered)
        tool = spec["name"]

        def call(self: "EcomRLVEToolEnv", *args: Any, **kwargs: Any) -> str:
            bound = inspect.signature(call).bind(self, *args, **kwargs)
            arguments = {k: v for k, v in bound.arguments.items() if k != "self" and v is not None}
            return self._call(tool, arguments)

        call.__name__ = call.__qualname__ = name
        call.__doc__ = f"{spec.get('description', tool)}\n\nArgs:\n{args_doc}\n\nReturns:\n    The turn's result as JSON." if ordered else f"{spec.get('description', tool)}\n\nReturns:\n    The turn's result as JSON."
        call.__signature__ = inspect.Signature(params, return_annotation=str)  # type: ignore[attr-defined]
        call.__annotations__ = {**{p.name: p.annotation for p in params[1:]}, "return": str}
        return call


def env_reward(environments: List[EcomRLVEToolEnv], **kwargs: Any) -> List[float]:
    """A TRL reward function: each rollout's episode reward."""
    return [e.get_reward() for e in environments]
