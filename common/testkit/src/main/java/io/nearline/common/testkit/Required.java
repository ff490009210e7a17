/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.common.testkit;

import java.util.Optional;

/**
 * What a test needs that a machine may lack (a package, root, LXC): where it is missing the test is
 * skipped with the reason, unless the environment variable {@code requireEnv} is true (CI sets it once
 * it has installed what the test needs), where a missing need is an error, so that a suite cannot pass
 * by skipping.
 */
public final class Required {

    /** Set by {@code .ci/run} once it has installed LXC: a test that needs LXC or root fails instead of skipping. */
    public static final String LXC_OR_ROOT = "NEARLINE_REQUIRE_LXC";

    private Required() {}

    /** "skipped: " and why the test cannot run here, or empty when it can; throws where it must run. */
    public static Optional<String> skipReason(String requireEnv, Optional<String> whyNot) {
        if (whyNot.isPresent() && "true".equals(System.getenv(requireEnv))) {
            throw new IllegalStateException(requireEnv + "=true but " + whyNot.get());
        }
        return whyNot.map(reason -> "skipped: " + reason);
    }
}
