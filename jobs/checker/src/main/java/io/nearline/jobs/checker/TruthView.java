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
package io.nearline.jobs.checker;

import io.nearline.common.cache.CacheKey;
import java.util.Optional;
import java.util.Set;

/** The source of truth as the divergence checker sees it: the latest row of each key. */
public interface TruthView {

    /** The latest committed row of {@code key}, a deleted one included. */
    Optional<Row> read(CacheKey key);

    /** Every key that was ever committed. */
    Set<CacheKey> keys();
}
