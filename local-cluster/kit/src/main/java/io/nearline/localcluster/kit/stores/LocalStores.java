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
package io.nearline.localcluster.kit.stores;

import io.nearline.common.config.Config;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreOpener;
import io.nearline.localcluster.kit.baselines.BlindWrites;
import io.nearline.localcluster.kit.faults.OutageStore;

/**
 * The stores the local tools open, for themselves and for the jobs they run: the one {@code cache.store}
 * names, behind the outage switch with {@code outage.enabled=true} ({@link OutageStore}), with blind
 * writes with {@code bench.blind-writes=true} ({@link BlindWrites}). The runners give {@link #OPENER} to
 * the jobs they define; a job deployed anywhere else opens its store as configured, and neither key
 * means anything to it.
 */
public final class LocalStores {

    /** What the local runners give the jobs they define. */
    public static final StoreOpener OPENER = LocalStores::open;

    private LocalStores() {}

    /** The store of {@code config}, with what the tools' own settings ask to put around it. */
    public static CacheStore open(Config config) {
        config.validateComplete(OutageStore.DEF); // the tools' keys checked here: jobs pass them through
        CacheStore store = StoreOpener.CONFIGURED.open(config);
        if (config.get(OutageStore.ENABLED)) {
            store = OutageStore.around(store, config);
        }
        return BlindWrites.asked(config) ? BlindWrites.around(store) : store;
    }
}
