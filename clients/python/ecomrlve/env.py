"""An OpenEnv-style typed client: `EcomRLVEEnv.reset(...)` / `.step(action)` return a
`StepResult(observation, reward, done)` with a typed observation, as OpenEnv's `EnvClient` does.

    from ecomrlve import EcomRLVEEnv, EcomAction
    with EcomRLVEEnv("http://127.0.0.1:3141") as env:          # WebSocket session (transport="http": HTTP)
        result = env.reset(env="CART", d=3, seed=7)
        while not result.done:
            result = env.step(EcomAction("Let me check.", [{"name": "cart.view", "args": {}}]))
        print(result.reward, result.observation.metadata["termination"])

The server lists the episode's tools in the reset's answer only (they do not change within an
episode, and they were most of every step's bytes); this client keeps them, so every
observation it returns has `tools`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Union

from .http_client import EcomRLVEClient
from .ws import EcomRLVEWsClient

__all__ = ["EcomAction", "EcomObservation", "EcomRLVEEnv", "EcomState", "StepResult", "ToolResult"]


@dataclass
class EcomAction:
    """One turn: what the assistant says, its tool calls, and (at the end) the answer."""

    assistant_message: str
    tool_calls: List[Dict[str, Any]] = field(default_factory=list)
    answer: Optional[Dict[str, Any]] = None

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)


@dataclass
class ToolResult:
    name: str
    args: Any
    result: Any
    error: Optional[str]


@dataclass
class EcomObservation:
    env_id: str
    turn: int
    customer_message: Optional[str]
    tool_results: List[ToolResult]
    tools: Optional[List[Dict[str, Any]]]  # the episode's (sent with the reset's answer only)
    budgets: Dict[str, int]
    done: bool
    error: Optional[str]
    metadata: Dict[str, Any]

    @classmethod
    def from_wire(cls, o: Dict[str, Any], metadata: Dict[str, Any],
                  tools: Optional[List[Dict[str, Any]]] = None) -> "EcomObservation":
        """`tools`: the episode's, kept from its reset, for an answer that does not list them."""
        return cls(
            env_id=o["envId"],
            turn=o["turn"],
            customer_message=o["customerMessage"],
            tool_results=[ToolResult(**r) for r in o["toolResults"]],
            tools=o.get("tools", tools),
            budgets=o["budgets"],
            done=o["done"],
            error=o.get("error"),
            metadata=metadata,
        )


@dataclass
class StepResult:
    """OpenEnv's StepResult."""

    observation: EcomObservation
    reward: Optional[float]
    done: bool


@dataclass
class EcomState:
    episode_id: Optional[str]
    step_count: int
    env: Optional[str] = None
    d: Optional[int] = None
    run: Optional[str] = None
    turn: Optional[int] = None
    t_max: Optional[int] = None
    done: Optional[bool] = None
    termination: Optional[str] = None
    reward: Optional[float] = None
    seed: Optional[int] = None  # simulation mode only


METADATA_KEYS = ("episode_id", "token", "env", "d", "seed", "run", "train_step", "group", "termination", "reward_parts")


class EcomRLVEEnv:
    """One episode at a time, over a WebSocket session (default) or stateful HTTP."""

    def __init__(self, base_url: str, transport: str = "ws", timeout: float = 60.0):
        if transport not in ("ws", "http"):
            raise ValueError(f'transport must be "ws" or "http", got {transport!r}')
        self._http = EcomRLVEClient(base_url, timeout=timeout) if transport == "http" else None
        self._ws = EcomRLVEWsClient(base_url, timeout=timeout) if transport == "ws" else None
        self.episode_id: Optional[str] = None
        self.token: Optional[str] = None
        self.tools: Optional[List[Dict[str, Any]]] = None  # the episode's, from its reset

    def _result(self, r: Dict[str, Any]) -> StepResult:
        metadata = {k: r[k] for k in METADATA_KEYS if k in r}
        return StepResult(EcomObservation.from_wire(r["observation"], metadata, self.tools), r["reward"], r["done"])

    def reset(self, env: str = "PD", d: int = 0, seed: Optional[int] = None, run: Optional[str] = None,
              train_step: Optional[int] = None, group: Optional[str] = None, **extra: Any) -> StepResult:
        """Starts an episode; run, train_step and group are stored with it (the inspector's GRPO groups)."""
        client = self._ws or self._http
        r = client.reset(env=env, d=d, seed=seed, run=run, train_step=train_step, group=group,  # type: ignore[union-attr]
                         **extra)
        self.episode_id, self.token, self.tools = r["episode_id"], r["token"], r["observation"]["tools"]
        return self._result(r)

    def step(self, action: Union[EcomAction, Dict[str, Any], str]) -> StepResult:
        if self.episode_id is None:
            raise RuntimeError("reset() first")
        wire = action.to_dict() if isinstance(action, EcomAction) else action
        r = self._ws.step(wire) if self._ws else self._http.step(self.episode_id, wire)  # type: ignore[union-attr]
        return self._result(r)

    def state(self) -> EcomState:
        if self.episode_id is None:
            raise RuntimeError("reset() first")
        s = self._ws.state() if self._ws else self._http.state(self.episode_id)  # type: ignore[union-attr]
        known = set(EcomState.__dataclass_fields__)
        return EcomState(**{k: v for k, v in s.items() if k in known})

    def close(self) -> None:
        if self._ws:
            self._ws.close()
        if self._http:
            self._http.close()

    def __enter__(self) -> "EcomRLVEEnv":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
