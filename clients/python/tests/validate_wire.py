"""Validates recorded server bodies and frames against OpenEnv's models (openenv_models.py).

    python3 validate_wire.py records.jsonl

Each line: {"kind": ..., "text": <the body or frame as sent>}. Prints a JSON summary
{"checked": n, "kinds": {kind: n}, "failures": [...]}; exits 1 when any record fails.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable, Dict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import openenv_models as m  # noqa: E402


def result(model: Any) -> Callable[[Dict[str, Any]], None]:
    """A reset/step answer: OpenEnv's response model, its observation as our strict Observation."""

    def check(body: Dict[str, Any]) -> None:
        model.model_validate(body)
        m.EcomObservation.model_validate(body["observation"])

    return check


def state(body: Dict[str, Any]) -> None:
    m.State.model_validate(body)
    m.EcomState.model_validate(body)


def no_episode_state(body: Dict[str, Any]) -> None:
    m.State.model_validate(body)
    m.NoEpisodeState.model_validate(body)


def ws_observation(frame: Dict[str, Any]) -> None:
    m.WSObservationResponse.model_validate(frame)
    result(m.StepResponse)(frame["data"])


def ws_state(frame: Dict[str, Any]) -> None:
    m.WSStateResponse.model_validate(frame)
    state(frame["data"])


def ws_error(frame: Dict[str, Any]) -> None:
    m.WSErrorResponse.model_validate(frame)
    data = frame["data"]
    assert isinstance(data.get("message"), str) and isinstance(data.get("code"), str), "error data needs message and code"
    if data["code"] == m.WSErrorCode.VALIDATION_ERROR.value:
        assert data.get("errors"), "a VALIDATION_ERROR frame lists its errors"
        for e in data["errors"]:
            m.ValidationErrorItem.model_validate(e)


def ws_mcp(frame: Dict[str, Any]) -> None:
    m.WSMCPResponse.model_validate(frame)
    m.JsonRpcResponse.model_validate(frame["data"])


CHECKS: Dict[str, Callable[[Dict[str, Any]], None]] = {
    "health": m.HealthResponse.model_validate,
    "metadata": m.EnvironmentMetadata.model_validate,
    "schema": m.SchemaResponse.model_validate,
    "reset": result(m.ResetResponse),
    "step": result(m.StepResponse),
    "state": state,
    "state_none": no_episode_state,
    "http_422": m.HTTPValidationError.model_validate,
    "ws_observation": ws_observation,
    "ws_state": ws_state,
    "ws_error": ws_error,
    "ws_mcp": ws_mcp,
    "mcp": m.JsonRpcResponse.model_validate,
}


def main(path: str) -> int:
    kinds: Dict[str, int] = {}
    failures = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            record = json.loads(line)
            kind = record["kind"]
            try:
                CHECKS[kind](json.loads(record["text"]))
                kinds[kind] = kinds.get(kind, 0) + 1
            except Exception as e:  # noqa: BLE001 - every failure is reported with its record
                failures.append({"line": n, "kind": kind, "error": str(e)[:2000], "text": record["text"][:500]})
    print(json.dumps({"checked": sum(kinds.values()), "kinds": kinds, "failures": failures[:20]}))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
