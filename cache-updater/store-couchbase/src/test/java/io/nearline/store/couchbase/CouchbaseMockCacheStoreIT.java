package io.nearline.store.couchbase;

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
