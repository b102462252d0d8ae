#!/usr/bin/env python3
"""Records a small, real JAX profiler trace (perfetto_trace.json.gz) on a GPU.

A two-layer MLP is trained for a few jitted steps under jax.profiler.trace
with create_perfetto_trace=True. Usage: record_jax_trace.py OUT_DIR
"""
import glob
import os
import shutil
import sys
import tempfile

import jax
import jax.numpy as jnp


def main():
    out_dir = sys.argv[1]
    key = jax.random.PRNGKey(0)
    k1, k2, k3 = jax.random.split(key, 3)
    params = {"w1": jax.random.normal(k1, (512, 1024)) * 0.02,
              "w2": jax.random.normal(k2, (1024, 10)) * 0.02}
    x = jax.random.normal(k3, (256, 512))
    y = jnp.arange(256) % 10

    def loss(p, x, y):
        h = jax.nn.relu(x @ p["w1"])
        logits = h @ p["w2"]
        return -jnp.mean(jax.nn.log_softmax(logits)[jnp.arange(y.shape[0]), y])

    @jax.jit
    def step(p, x, y):
        g = jax.grad(loss)(p, x, y)
        return jax.tree_util.tree_map(lambda a, b: a - 0.1 * b, p, g)

    params = step(params, x, y)  # compile outside the trace
    jax.block_until_ready(params)
    tmp = tempfile.mkdtemp()
    with jax.profiler.trace(tmp, create_perfetto_trace=True):
        for _ in range(5):
            params = step(params, x, y)
        jax.block_until_ready(params)
    for f in glob.glob(os.path.join(tmp, "**", "*"), recursive=True):
        if f.endswith("perfetto_trace.json.gz"):
            shutil.copy(f, os.path.join(out_dir, "jax_mlp.perfetto_trace.json.gz"))
        elif f.endswith(".trace.json.gz") or f.endswith(".xplane.pb"):
            shutil.copy(f, os.path.join(out_dir, "jax_mlp." + os.path.basename(f).split(".", 1)[1]))
    print("jax", jax.__version__, "files:", os.listdir(out_dir))


if __name__ == "__main__":
    main()
