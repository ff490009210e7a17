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
package io.nearline.cacheupdater.storecouchbase;

/** The store contract against CouchbaseMock through the real Couchbase Java SDK. */
class CouchbaseMockCacheStoreIT extends CouchbaseStoreContract {

    private CouchbaseMockServer server;

    @Override
    protected CouchbaseStoreSettings startServer() throws Exception {
        server = CouchbaseMockServer.start();
        return server.settings();
    }

    @Override
    protected void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    // CouchbaseMock serves a few thousand operations a second: race on a smaller scale.
    @Override
    protected int raceKeys() {
        return 30;
    }

    @Override
    protected int hotKeyHistoryLength() {
        return 80;
    }
}
