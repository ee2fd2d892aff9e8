"""OpenEnv's wire models, restated from its source (openenv/core/env_server/types.py and
mcp_types.py, meta-pytorch/OpenEnv) so the conformance test can check our server against them
without installing OpenEnv. Field names, types, defaults and `extra` settings are OpenEnv's.
Below them, our observation, metadata and state as OpenEnv subclasses with extra fields
forbidden: what GET /schema publishes, checked field by field.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Dict, List, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

# ----- openenv/core/env_server/types.py -----


class HealthStatus(str, Enum):
    HEALTHY = "healthy"
    UNHEALTHY = "unhealthy"
    DEGRADED = "degraded"


class WSErrorCode(str, Enum):
    INVALID_JSON = "INVALID_JSON"
    UNKNOWN_TYPE = "UNKNOWN_TYPE"
    VALIDATION_ERROR = "VALIDATION_ERROR"
    EXECUTION_ERROR = "EXECUTION_ERROR"
    CAPACITY_REACHED = "CAPACITY_REACHED"
    FACTORY_ERROR = "FACTORY_ERROR"
    SESSION_ERROR = "SESSION_ERROR"


class Observation(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True, arbitrary_types_allowed=True)
    done: bool = False
    reward: Union[bool, int, float, None] = None
    metadata: Dict[str, Any] = Field(default_factory=dict)


class ResetResponse(BaseModel):
    model_config = ConfigDict(extra="forbid")
    observation: Dict[str, Any]
    reward: Optional[float] = None
    done: bool = False


class StepResponse(BaseModel):
    model_config = ConfigDict(extra="forbid")
    observation: Dict[str, Any]
    reward: Optional[float] = None
    done: bool = False


class BaseMessage(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class State(BaseModel):
    model_config = ConfigDict(extra="allow", validate_assignment=True, arbitrary_types_allowed=True)
    episode_id: Optional[str] = None
    step_count: int = Field(default=0, ge=0)


class EnvironmentMetadata(BaseMessage):
    name: str
    description: str
    readme_content: Optional[str] = None
    version: Optional[str] = None
    author: Optional[str] = None
    documentation_url: Optional[str] = None


class SchemaResponse(BaseMessage):
    action: Dict[str, Any]
    observation: Dict[str, Any]
    state: Dict[str, Any]


class HealthResponse(BaseMessage):
    status: HealthStatus = HealthStatus.HEALTHY


class WSObservationResponse(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["observation"] = "observation"
    data: Dict[str, Any]


class WSStateResponse(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["state"] = "state"
    data: Dict[str, Any]


class WSErrorResponse(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["error"] = "error"
    data: Dict[str, Any]


# ----- openenv/core/env_server/mcp_types.py -----


class JsonRpcError(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: int
    message: str
    data: Optional[Any] = None


class JsonRpcResponse(BaseModel):
    model_config = ConfigDict(extra="forbid")
    jsonrpc: Literal["2.0"] = "2.0"
    result: Optional[Any] = None
    error: Optional[JsonRpcError] = None
    id: Optional[Union[str, int]] = None


class WSMCPResponse(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: str = "mcp"
    data: Dict[str, Any]


# ----- FastAPI's 422 body (what OpenEnv's /step answers a schema-breaking action with) -----


class ValidationErrorItem(BaseModel):
    loc: List[Union[str, int]]
    msg: str
    type: str


class HTTPValidationError(BaseModel):
    detail: List[ValidationErrorItem]


# ----- ours, as OpenEnv subclasses with extra fields forbidden (GET /schema) -----


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ToolResult(Strict):
    name: str
    args: Any
    result: Any
    error: Optional[str]


class ToolSpec(Strict):
    name: str
    description: str
    parameters: Dict[str, Any]


class Budgets(Strict):
    T_max: int
    B_tool: int


class RewardParts(Strict):
    r_task: float
    r_eff: float
    r_hall: float
    is_correct: bool


class EcomMetadata(Strict):
    episode_id: str
    token: Optional[str] = None
    env: Optional[str] = None
    d: Optional[int] = None
    seed: Optional[int] = None
    run: Optional[str] = None
    train_step: Optional[int] = None
    group: Optional[str] = None
    termination: Optional[str]
    reward_parts: Optional[RewardParts]


class EcomObservation(Observation):
    envId: str
    turn: int
    customerMessage: Optional[str]
    toolResults: List[ToolResult]
    tools: Optional[List[ToolSpec]] = None  # the reset's answer only
    budgets: Budgets
    error: Optional[str] = None
    metadata: EcomMetadata  # type: ignore[assignment]


class EcomState(State):
    model_config = ConfigDict(extra="forbid")
    env: str
    d: int
    seed: Optional[int] = None
    run: Optional[str]
    turn: int
    t_max: int
    done: bool
    termination: Optional[str]
    reward: Optional[float]


class NoEpisodeState(State):
    """What OpenEnv's State is for an environment nobody reset (GET /state without an episode)."""

    model_config = ConfigDict(extra="forbid")
