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
import java.io.Serializable;

/**
 * How a job's tasks open their cache store, given to the job by whoever defines it. Production
 * passes {@link #CONFIGURED}: the store {@code cache.store} names, from the providers on the
 * classpath. A local tool passes its own (a store it can take down, blind writes for a baseline), so
 * no job artifact carries or finds a store that only the tools need. Serializable: an engine ships it
 * with the job to the tasks that open the store.
 */
@FunctionalInterface
public interface StoreOpener extends Serializable {

    /** The store {@code cache.store} names, opened by its provider. */
    StoreOpener CONFIGURED = CacheStores::open;

    /** Opens the store for a task with the job's settings; the caller closes it. */
    CacheStore open(Config config);
}
