"""The package against a live serve:env (ECOMRLVE_URL), imported from clients/python uninstalled.

    ECOMRLVE_URL=http://127.0.0.1:3141 python3 -m unittest discover -s clients/python/tests -p 'test_*.py'
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

import ecomrlve  # noqa: E402
from ecomrlve import (EcomAction, EcomRLVEClient, EcomRLVEEnv, EcomRLVEToolEnv, EcomRLVEWsClient,  # noqa: E402
                      EnvServerError, env_reward)

URL = os.environ.get("ECOMRLVE_URL", "http://127.0.0.1:3141")


class TypedClient(unittest.TestCase):
    def test_plays_over_both_transports_and_agrees(self):
        finals = []
        for transport in ("ws", "http"):
            with EcomRLVEEnv(URL, transport=transport) as env:
                r = env.reset(env="CART", d=2, seed=3)
                self.assertEqual(r.observation.env_id, "CART")
                self.assertEqual(r.observation.metadata["seed"], 3)
                self.assertFalse(r.done)
                tools = r.observation.tools
                self.assertIn("cart.view", [t["name"] for t in tools])
                r = env.step(EcomAction("Let me look at your cart.", [{"name": "cart.view", "args": {}}]))
                self.assertEqual(r.observation.turn, 1)
                self.assertEqual(r.observation.tools, tools)  # kept from the reset (a step's answer has none)
                self.assertEqual(r.observation.tool_results[0].name, "cart.view")
                state = env.state()
                self.assertEqual((state.episode_id, state.step_count, state.env), (env.episode_id, 1, "CART"))
                r = env.step("this is not an action")
                self.assertTrue(r.done)
                self.assertEqual(r.observation.metadata["termination"], "format_invalid")
                finals.append((r.reward, r.observation.customer_message))
        self.assertEqual(finals[0], finals[1])

    def test_reset_records_run_train_step_and_group_over_both_transports(self):
        for transport in ("ws", "http"):
            with EcomRLVEEnv(URL, transport=transport) as env:
                r = env.reset(env="PD", d=1, seed=2, run="py-run", train_step=3, group=f"g-{transport}")
                self.assertEqual({k: r.observation.metadata[k] for k in ("run", "train_step", "group")},
                                 {"run": "py-run", "train_step": 3, "group": f"g-{transport}"})
                self.assertEqual(env.state().run, "py-run")
        with EcomRLVEClient(URL) as client:
            plain = client.reset(env="PD", d=1, seed=2, run="py-run")
            self.assertNotIn("train_step", plain)  # echoed only when sent
            with self.assertRaises(EnvServerError) as refused:
                client.reset(env="PD", train_step=-1)
            self.assertEqual(refused.exception.code, "VALIDATION_ERROR")
            self.assertIn("train_step", str(refused.exception))

    def test_a_schema_breaking_action_is_refused_and_the_episode_goes_on(self):
        with EcomRLVEEnv(URL, transport="http") as env:
            env.reset(env="PD", d=1, seed=2)
            with self.assertRaises(EnvServerError) as refused:
                env.step({"assistant_message": "x", "tool_calls": [{"name": "no.such_tool"}]})
            self.assertEqual((refused.exception.code, refused.exception.status), ("VALIDATION_ERROR", 422))
            self.assertEqual(env.step(EcomAction("Hello!")).observation.turn, 1)


class Clients(unittest.TestCase):
    def test_http_describes_the_server_in_openenv_shapes(self):
        with EcomRLVEClient(URL) as client:
            self.assertEqual(client.health(), {"status": "healthy"})
            self.assertEqual(set(client.schema("PD")), {"action", "observation", "state"})
            self.assertEqual(client.metadata()["name"], "EcomRLVE-GYM")
            self.assertEqual(client.info()["mode"], "simulation")

    def test_the_tools_come_with_the_reset_only(self):
        with EcomRLVEClient(URL) as client, EcomRLVEWsClient(URL) as ws:
            for reset, step in ((lambda: client.reset(env="PD", d=1, seed=2), lambda r: client.step(r["episode_id"], "Hi!")),
                                (lambda: ws.reset(env="PD", d=1, seed=2), lambda r: ws.step("Hi!"))):
                r = reset()
                self.assertIn("catalog.search", [t["name"] for t in r["observation"]["tools"]])
                self.assertNotIn("tools", step(r)["observation"])

    def test_ws_client_speaks_mcp_on_its_episode(self):
        with EcomRLVEWsClient(URL) as ws:
            r = ws.reset(env="STATUS", d=1, seed=4)
            tools = ws.mcp("tools/list")["result"]["tools"]
            self.assertIn("order.list", [t["name"] for t in tools])
            call = ws.mcp("tools/call", {"name": "order.list", "arguments": {}})["result"]
            self.assertFalse(call["isError"])
            self.assertEqual(ws.state()["step_count"], 1)
            self.assertEqual(ws.episode_id, r["episode_id"])


class TrlEnvironment(unittest.TestCase):
    def test_the_shape_trl_expects(self):
        env = EcomRLVEToolEnv(URL, env="STATUS", d=1)
        public = sorted(n for n, v in inspect.getmembers(env, inspect.ismethod) if not n.startswith("_"))
        self.assertEqual(public, sorted(["reset", "get_reward", *env.tool_names]))
        self.assertEqual(env.tool_names[-2:], ["reply", "answer"])
        for name in env.tool_names:
            method = getattr(env, name)
            params = inspect.signature(method).parameters
            self.assertIn("Args:", method.__doc__ or "", name)
            for p in params:
                self.assertIn(f"    {p}: ", method.__doc__, f"{name}.{p} is documented")
                self.assertIsNot(params[p].annotation, inspect.Parameter.empty, f"{name}.{p} is typed")
        self.assertIn("order_id", inspect.signature(env.order_get_status).parameters)

    def test_reset_returns_the_prompt_and_the_tools_play_to_the_reward(self):
        env = EcomRLVEToolEnv(URL, env="STATUS", d=1, run="trl-test")
        prompt = env.reset(seed=4)
        self.assertIsInstance(prompt, str)
        self.assertIn("Customer: ", prompt)
        orders = json.loads(env.order_list())
        self.assertEqual(orders["tool_results"][0]["name"], "order.list")
        first = orders["tool_results"][0]["result"]["orders"][0]
        result = json.loads(env.answer(selected_order_id=first["order_id"], order_status=first["status"]))
        self.assertTrue(result["done"])
        self.assertTrue(env.done)
        self.assertEqual(env.get_reward(), result["reward"])
        self.assertEqual(env_reward([env]), [result["reward"]])
        # the server's own record of the episode agrees
        with EcomRLVEClient(URL) as client:
            client._tokens[env.episode_id] = env._token
            self.assertEqual(client.state(env.episode_id)["reward"], result["reward"])

    def test_reset_sends_run_train_step_and_group_from_defaults_and_rows(self):
        env = EcomRLVEToolEnv(URL, env="PD", d=1, run="trl-run", train_step=0, group="fixed")
        env.reset(seed=2)
        self.assertEqual({k: env.metadata[k] for k in ("run", "train_step", "group")},
                         {"run": "trl-run", "train_step": 0, "group": "fixed"})
        env.train_step = 5  # as training goes on
        env.reset(seed=2, group="row-group")  # a dataset row's fields win
        self.assertEqual((env.metadata["train_step"], env.metadata["group"]), (5, "row-group"))

    def test_a_row_for_another_env_is_refused(self):
        env = EcomRLVEToolEnv(URL, env="PD")
        with self.assertRaises(ValueError):
            env.reset(env="CART")


class GrpoExample(unittest.TestCase):
    def test_one_group_of_one_seed_with_rewards_and_advantages(self):
        script = os.path.join(HERE, "..", "examples", "grpo_group.py")
        out = subprocess.run([sys.executable, script, "--url", URL, "--env", "PD", "--d", "3", "--seed", "7",
                              "--group", "4", "--run", "example-run", "--train-step", "2", "--json"],
                             check=True, capture_output=True, text=True, timeout=120)
        group = json.loads(out.stdout)
        # every rollout was recorded under the same run, step and group
        self.assertEqual(group["recorded"], [{"run": "example-run", "train_step": 2, "group": "PD-d3-seed7-step2"}] * 4)
        self.assertEqual(len(group["rewards"]), 4)
        self.assertEqual(len(set(group["episodes"])), 4)
        mean = sum(group["rewards"]) / 4
        self.assertAlmostEqual(group["mean"], mean)
        for r, a in zip(group["rewards"], group["advantages"]):
            self.assertAlmostEqual(a, (r - mean) / (group["std"] + 1e-6))
        # the same task: every rollout's customer opened with the same message
        with EcomRLVEClient(URL) as client:
            openings = {client.reset(env="PD", d=3, seed=7)["observation"]["customerMessage"] for _ in range(2)}
        self.assertEqual(len(openings), 1)


class Package(unittest.TestCase):
    def test_imports_from_the_folder(self):
        self.assertTrue(os.path.normpath(ecomrlve.__file__).startswith(os.path.normpath(os.path.join(HERE, "..", "ecomrlve"))))


if __name__ == "__main__":
    unittest.main()
