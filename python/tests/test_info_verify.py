# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""info(), verify mode (CPU against CPU) and the placement report."""
import numpy as np

import accel


def test_info_lists_backends_devices_and_reasons():
    info = accel.info()
    names = [b["name"] for b in info.backends]
    assert "cpu" in names
    cpu = next(b for b in info.backends if b["name"] == "cpu")
    assert cpu["loaded"] and cpu["device_count"] >= 1 and cpu["status"] == "ACCEL_SUCCESS"
    for b in info.backends:
        if not b["loaded"]:
            assert b["reason"] and b["status"].startswith("ACCEL_ERROR_")
    assert any(d["name"] == "cpu:0" and d["kind"] == "cpu" for d in info.devices)
    assert info.default_device in [d["name"] for d in info.devices]
    assert info.config.endswith("plugins.ini")
    text = str(info)
    assert "backends:" in text and "devices:" in text and "cpu:0" in text


def test_verify_mode_cpu_against_cpu(rng):
    before = accel.verify_stats()
    with accel.verify("cpu", check_reference_device=True, fail=True):
        x = accel.asarray(rng.random(1000))
        y = accel.exp(x) + x
        s = y.sum()
        got = float(s)
        accel.synchronize()
    after = accel.verify_stats()
    assert after["checked"] >= before["checked"] + 3
    assert after["mismatches"] == before["mismatches"]
    assert abs(got - float(np.sum(np.exp(x.get()) + x.get()))) < 1e-9
    # off again: nothing more is checked
    z = accel.exp(x)
    accel.synchronize()
    assert accel.verify_stats()["checked"] == after["checked"]
    del z


def test_verify_unknown_device_is_not_found():
    try:
        accel.verify("nosuch:3")
    except accel.AccelError as e:
        assert e.status in ("ACCEL_ERROR_NOT_FOUND", "ACCEL_ERROR_INVALID_ARGUMENT")
    else:
        raise AssertionError("verify accepted an unknown device")
    finally:
        accel.verify(None)


def test_report_counts_ops_per_device():
    accel.report_enable(True)
    a = accel.ones(100)
    for _ in range(3):
        a = a * 2.0
    accel.synchronize()
    rep = accel.report()
    mul = [r for r in rep.rows if r["op"] == "mul"]
    assert mul and sum(r["ops"] for r in mul) >= 3
    assert all(r["device"] for r in rep.rows)
    assert "placement report" in str(rep) and "mul" in str(rep)
    accel.report_enable(False)
