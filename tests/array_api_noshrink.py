# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The accel authors
"""pytest plugin (-p array_api_noshrink) for the Array API conformance runs:
hypothesis's default settings without the shrink phase, loaded before the
suite's conftest registers its profile (which inherits them). A failing
test then reports its first failing example at once instead of searching
for a smaller one, where every new dtype or rank compiles a kernel."""
from hypothesis import Phase, settings

settings.register_profile("accel-noshrink",
                          phases=[Phase.explicit, Phase.reuse, Phase.generate])
settings.load_profile("accel-noshrink")
