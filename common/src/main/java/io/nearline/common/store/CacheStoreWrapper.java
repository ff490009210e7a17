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
package io.nearline.common.store;

import io.nearline.common.config.Config;

/**
 * Something put around every store {@link CacheStores#open} opens, registered in
 * {@code META-INF/services/io.nearline.common.store.CacheStoreWrapper}. No job artifact ships one:
 * the local tools do (the benches' blind writes, the baseline the ordered write is measured against),
 * so that a job running in a tool's JVM writes through them without a line of the job knowing.
 */
public interface CacheStoreWrapper {

    /** {@code store} wrapped for {@code config}, or {@code store} itself where this wrapper is not asked for. */
    CacheStore wrap(CacheStore store, Config config);
}
