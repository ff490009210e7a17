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
package io.nearline.cacheupdater.core.contract;

import io.nearline.common.store.CacheStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * The store contract on a networked store whose server a subclass starts once for all its tests:
 * one client for the tests; a reopen is a new client on the same server, as the data lives there.
 *
 * @param <S> the store's connection settings
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ServerStoreContract<S> extends CacheStoreContract {

    private S settings;
    private CacheStore store;

    /** Starts the server and returns the settings to reach it. */
    protected abstract S startServer() throws Exception;

    protected abstract void stopServer();

    /** A new client of the store at {@code settings}. */
    protected abstract CacheStore connect(S settings);

    @BeforeAll
    void connectOnce() throws Exception {
        settings = startServer();
        store = connect(settings);
    }

    @AfterAll
    void disconnect() {
        if (store != null) {
            store.close();
        }
        stopServer();
    }

    @Override
    protected CacheStore store() {
        return store;
    }

    @Override
    protected CacheStore reopen() {
        store.close();
        store = connect(settings);
        return store;
    }

    @Override
    protected CacheStore closedStore() {
        return connect(settings);
    }
}
