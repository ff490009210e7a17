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

/**
 * Seeds for randomized tests: fresh each run (so runs explore), fixed with {@code -Dnearline.seed=N}
 * (so a failure can be replayed). Put {@link #replay(long)} in every assertion message.
 */
public final class Seeds {

    private Seeds() {}

    public static long seed() {
        Long fixed = Long.getLong("nearline.seed");
        return fixed != null
                ? fixed
                : System.nanoTime() ^ Thread.currentThread().getId();
    }

    public static String replay(long seed) {
        return "seed=" + seed + " (replay with -Dnearline.seed=" + seed + ")";
    }
}
