"""Python clients for the EcomRLVE-GYM env server (OpenEnv-compatible). Standard library only.

- `EcomRLVEClient`: HTTP (any number of episodes, stateful, simulation mode).
- `EcomRLVEWsClient`: one WebSocket session (both modes), reset/step/state/MCP.
- `EcomRLVEEnv`: OpenEnv-style typed client, `reset()`/`step()` → `StepResult`.
- `EcomRLVEToolEnv`, `env_reward`: a TRL `environment_factory` class and reward function.
- `interchange`: OpenEnv `collect` results.jsonl from and to episodes.
"""

from .env import EcomAction, EcomObservation, EcomRLVEEnv, EcomState, StepResult, ToolResult
from .http_client import EcomRLVEClient, EnvServerError, flat
from .trl_env import EcomRLVEToolEnv, env_reward
from .ws import EcomRLVEWsClient

__version__ = "0.2.0"

__all__ = [
    "EcomAction",
    "EcomObservation",
    "EcomRLVEClient",
    "EcomRLVEEnv",
    "EcomRLVEToolEnv",
    "EcomRLVEWsClient",
    "EcomState",
    "EnvServerError",
    "StepResult",
    "ToolResult",
    "env_reward",
    "flat",
]
