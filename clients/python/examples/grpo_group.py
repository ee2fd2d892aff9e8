"""One GRPO group: G rollouts of the same task (env, d, seed), their rewards and advantages.

    python3 examples/grpo_group.py --url http://127.0.0.1:3141 --env PD --d 3 --seed 7 --group 8 \
        --run my-run --train-step 12

Each rollout is an `EcomRLVEToolEnv` (the TRL environment class) played by a toy stochastic
policy through its tool methods, as a model would call them; the policy's randomness (seeded by
the rollout index) is what makes the group's rewards differ. GRPO's advantage of rollout i is
(r_i − mean(r)) / (std(r) + eps). Every rollout is reset with the run, the train step and the
group's name, so the server stores them together and the inspector shows them as one group.
Swap `toy_policy` for your model.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
from typing import Any, Dict, List

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # the package, uninstalled

from ecomrlve import EcomRLVEToolEnv  # noqa: E402


def product_ids(text: str) -> List[str]:
    """Product ids a tool result showed (the policy only names what it has seen)."""
    seen: List[str] = []
    for pid in re.findall(r'"product_id":\s*"([^"]+)"', text):
        if pid not in seen:
            seen.append(pid)
    return seen


def toy_policy(env: EcomRLVEToolEnv, prompt: str, rng: random.Random) -> None:
    customer = prompt.rsplit("Customer:", 1)[-1].strip()[:200] or "products"
    tools = set(env.tool_names)
    seen: List[str] = []
    for _ in range(rng.randint(1, 2)):
        if env.done:
            return
        if "catalog_search" in tools:
            words = customer.split()
            query = " ".join(rng.sample(words, k=min(len(words), rng.randint(2, 6)))) if words else "products"
            seen += product_ids(env.catalog_search(query=query))
        elif "order_list" in tools:
            env.order_list()
        else:
            env.reply(assistant_message="Could you tell me a little more?")
    while not env.done:
        try:
            env.answer(recommended_product_ids=rng.sample(seen, k=min(len(seen), rng.randint(1, 3))) if seen else [])
        except TypeError:  # this env's answer has other fields: talk until the turn budget ends it
            env.reply(assistant_message="Could you tell me a little more?")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:3141")
    parser.add_argument("--env", default="PD")
    parser.add_argument("--d", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--group", type=int, default=8, help="G: rollouts of the same task")
    parser.add_argument("--run", default="grpo-group-example", help="the training run, stored with each rollout")
    parser.add_argument("--train-step", type=int, default=0, help="the trainer's step, stored with each rollout")
    parser.add_argument("--json", action="store_true", help="print the group as one JSON line")
    args = parser.parse_args()
    group_id = f"{args.env}-d{args.d}-seed{args.seed}-step{args.train_step}"

    rewards: List[float] = []
    episodes: List[str] = []
    recorded: List[Dict[str, Any]] = []
    for i in range(args.group):
        env = EcomRLVEToolEnv(args.url, env=args.env, d=args.d, seed=args.seed, run=args.run,
                              train_step=args.train_step, group=group_id)
        prompt = env.reset()
        toy_policy(env, prompt, random.Random(i))
        rewards.append(env.get_reward())
        episodes.append(env.episode_id)
        recorded.append({k: env.metadata.get(k) for k in ("run", "train_step", "group")})
    mean = statistics.fmean(rewards)
    std = statistics.pstdev(rewards)
    advantages = [(r - mean) / (std + 1e-6) for r in rewards]
    group: Dict[str, Any] = {"env": args.env, "d": args.d, "seed": args.seed, "run": args.run,
                             "train_step": args.train_step, "group": group_id, "rewards": rewards, "mean": mean,
                             "std": std, "advantages": advantages, "episodes": episodes, "recorded": recorded}
    if args.json:
        print(json.dumps(group))
    else:
        print(f"{args.run} step {args.train_step}, group {group_id}: G={args.group}, mean {mean:+.3f}, std {std:.3f}")
        for i, (r, a) in enumerate(zip(rewards, advantages)):
            print(f"  rollout {i}: reward {r:+.3f}  advantage {a:+.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
