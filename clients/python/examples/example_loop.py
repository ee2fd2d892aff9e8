"""Plays episodes against an env server with a deliberately simple policy.

    python3 examples/example_loop.py --url http://127.0.0.1:3141 --env PD --d 2 --seed 7
    python3 examples/example_loop.py --url http://127.0.0.1:3141 --env all --transcripts out.json

The policy: search once with the customer's words (or list orders / search the policy), then,
if the answer only needs product ids, recommend the top hits; otherwise keep asking until the
turn budget ends the episode. It reads which answer fields are required from GET /schema, as a
real trainer's prompt builder would. Swap `simple_policy` for your model.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List, Set

import os

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # the package, uninstalled

from ecomrlve import EcomRLVEClient  # noqa: E402

ALL_ENVS = ["PD", "SUB", "CART", "RETURN", "STATUS", "POLICY", "BUNDLE", "JOURNEY"]


def required_answer_fields(action_schema: Dict[str, Any]) -> List[str]:
    """The answer's required fields besides env and done, from the published action schema."""
    answer = action_schema["properties"]["answer"]
    for option in answer.get("anyOf", [answer]):
        if option.get("type") == "object":
            return [f for f in option.get("required", []) if f not in ("env", "done")]
    return []


def simple_policy(env: str, observation: Dict[str, Any], tools: Set[str], required: List[str]) -> Dict[str, Any]:
    message = (observation.get("customerMessage") or "")[:200] or "products"
    if observation["turn"] == 0:
        for name, args in (("catalog.search", {"query": message}), ("order.list", {}), ("policy.search", {"query": message})):
            if name in tools:
                return {"assistant_message": "Let me look that up.", "tool_calls": [{"name": name, "args": args}], "answer": None}
    hits = [r for r in observation["toolResults"] if r["name"] == "catalog.search" and r["error"] is None]
    if set(required) <= {"recommended_product_ids"}:
        ids = [p["product_id"] for p in (hits[0]["result"] if hits else [])][:5]
        answer: Dict[str, Any] = {"env": env, "done": True}
        if required:
            answer["recommended_product_ids"] = ids
        return {"assistant_message": "Here is what I suggest.", "tool_calls": [], "answer": answer}
    return {"assistant_message": "Could you tell me a little more?", "tool_calls": [], "answer": None}


def play(client: EcomRLVEClient, env: str, d: int, seed: int, run: str) -> Dict[str, Any]:
    required = required_answer_fields(client.schema(env)["action"])
    result = client.reset(env=env, d=d, seed=seed, run=run)
    episode_id = result["episode_id"]
    tools = {t["name"] for t in result["observation"]["tools"]}  # listed in the reset's answer only
    transcript: Dict[str, Any] = {"env": env, "d": d, "seed": result["seed"], "episode_id": episode_id,
                                  "actions": [], "observations": [result["observation"]], "rewards": [result["reward"]]}
    while not result["done"]:
        action = simple_policy(env, result["observation"], tools, required)
        result = client.step(episode_id, action)
        assert result["episode_id"] == episode_id
        transcript["actions"].append(action)
        transcript["observations"].append(result["observation"])
        transcript["rewards"].append(result["reward"])
    transcript.update(done=True, reward=result["reward"], termination=result["termination"])
    return transcript


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:3141")
    parser.add_argument("--env", default="PD", help="an env id, or 'all'")
    parser.add_argument("--d", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--run", default="python-example")
    parser.add_argument("--transcripts", help="write every episode's actions, observations and rewards here (JSON)")
    args = parser.parse_args()
    envs = ALL_ENVS if args.env == "all" else [args.env]
    transcripts = []
    with EcomRLVEClient(args.url) as client:
        for env in envs:
            t = play(client, env, args.d, args.seed, args.run)
            transcripts.append(t)
            print(f"{env:8} seed {t['seed']:<6} turns {len(t['actions']):<3} reward {t['reward']:+.3f}  {t['termination']}")
    if args.transcripts:
        with open(args.transcripts, "w", encoding="utf-8") as f:
            json.dump(transcripts, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
