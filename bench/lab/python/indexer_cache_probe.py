#!/usr/bin/env python3
"""pypto-lib's deepseek_v4_pro prefill_indexer: does libpto's score differ from the golden's
only through the int8 index cache?

    python bench/lab/python/indexer_cache_probe.py BUILD FIRST_SEED END_SEED

BUILD is the model's compile (the sweep's OUT/models_deepseek_v4_pro_prefill_indexer_a5.build,
or `python -m pto.pypto MODEL -o BUILD --compile-only`). Per seed (torch.manual_seed before the
model's build_tensor_specs): the golden, libpto's run on one worker and the model's own verdict
(its __main__'s comparators); the int8 cache codes where libpto and the golden differ by one
(the golden's cache comparator allows 1% of them, atol 1) and by more; then the golden again
with its compressor's cache and scale replaced by libpto's, and libpto's score judged by that.
Run from pypto-lib's root with PYTHONPATH holding libpto's Python package and
PTO_RUNTIME_LIBRARY set (docs/pypto.md); needs PyPTO and torch.
"""
import sys
from pathlib import Path
from pto.pypto import _harness, _compile  # before torch: libpto's static TLS
import torch
ROOT = Path.cwd()
sys.path[:0] = [str(ROOT), str(ROOT / 'models/deepseek_v4_pro')]
import prefill_indexer as m
BUILD = sorted(Path(sys.argv[1]).glob('_jit_*'))[-1]
compiled = _compile.read_table(BUILD)
golden = _harness.require('golden')
nt = m.T
cmp = {"score": m.prefill_score_compare(num_tokens=nt), "topk_idxs": m.prefill_topk_compare(nt),
       "inner_compress_state": m.mapped_inner_state_ratio_allclose(num_tokens=nt, atol=1e-3, rtol=1e-3, max_error_ratio=0.0),
       "idx_kv_cache": m.mapped_idx_cache_ratio_allclose(num_tokens=nt, atol=1, rtol=0, max_error_ratio=0.01),
       "idx_kv_scale": m.mapped_idx_cache_ratio_allclose(num_tokens=nt, atol=1e-4, rtol=1.0 / 128, max_error_ratio=0.01)}
orig = m.golden_prefill_indexer_compressor
for seed in range(int(sys.argv[2]), int(sys.argv[3])):
    torch.manual_seed(seed)
    specs = m.build_tensor_specs()
    tensors, scalars = _harness._golden_inputs(specs, None)
    pristine = {k: v.clone() for k, v in tensors.items()}
    m.golden_prefill_indexer_compressor = orig
    expected = _harness._compute_golden(specs, tensors, scalars, m.golden_prefill_indexer, None)
    r = _harness.RunResult(passed=False, workers=1)
    _harness._run_once(r, compiled.output_dir, specs, tensors, scalars, False)
    _harness.judge(r, golden, specs, tensors, scalars, expected, 1e-3, 1e-3, cmp)
    codes = (tensors['idx_kv_cache'].int() - expected['idx_kv_cache'].int()).abs()
    mine_cache, mine_scale = tensors['idx_kv_cache'].clone(), tensors['idx_kv_scale'].clone()

    def with_libpto_cache(ct):
        orig(ct)
        ct['idx_kv_cache'][:] = mine_cache
        ct['idx_kv_scale'][:] = mine_scale
    m.golden_prefill_indexer_compressor = with_libpto_cache
    again = _harness._compute_golden(specs, {k: v.clone() for k, v in pristine.items()}, scalars,
                                     m.golden_prefill_indexer, None)
    r2 = _harness.RunResult(passed=False, workers=1)
    _harness.judge(r2, golden, specs, tensors, scalars, again, 1e-3, 1e-3, cmp)
    score_err = (tensors['score'] - again['score']).abs().max().item()
    print(f"seed {seed}: {'PASS' if r.passed else 'FAIL'}; cache codes off by one: {int((codes == 1).sum())},"
          f" more: {int((codes > 1).sum())}; score against the golden on libpto's cache:"
          f" {'PASS' if r2.passed else 'FAIL'} (max abs {score_err:.3g}; against its own: "
          f"{(tensors['score'] - expected['score']).abs().max().item():.3g})", flush=True)
