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

import static com.couchbase.client.java.kv.GetOptions.getOptions;
import static com.couchbase.client.java.kv.InsertOptions.insertOptions;
import static com.couchbase.client.java.kv.ReplaceOptions.replaceOptions;
import static com.couchbase.client.java.kv.UpsertOptions.upsertOptions;

import com.couchbase.client.core.error.AmbiguousTimeoutException;
import com.couchbase.client.core.error.CasMismatchException;
import com.couchbase.client.core.error.CouchbaseException;
import com.couchbase.client.core.error.DocumentExistsException;
import com.couchbase.client.core.error.DocumentLockedException;
import com.couchbase.client.core.error.DocumentNotFoundException;
import com.couchbase.client.core.error.RequestCanceledException;
import com.couchbase.client.core.error.ServiceNotAvailableException;
import com.couchbase.client.core.error.TemporaryFailureException;
import com.couchbase.client.core.error.TimeoutException;
import com.couchbase.client.java.AsyncCollection;
import com.couchbase.client.java.Bucket;
import com.couchbase.client.java.Cluster;
import com.couchbase.client.java.ClusterOptions;
import com.couchbase.client.java.Collection;
import com.couchbase.client.java.codec.RawBinaryTranscoder;
import com.couchbase.client.java.kv.GetResult;
import com.couchbase.client.java.kv.MutationResult;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.ErrorRateHealth;
import io.nearline.common.store.StoreException;
import io.nearline.common.store.StoreUnavailableException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The production {@link CacheStore} on Couchbase through the Java SDK 3. Values are stored as raw
 * binary documents (the cache-record envelope); CAS is Couchbase's own.
 *
 * <ul>
 *   <li>Every mutation passes the expiry explicitly: Couchbase resets it on a replace otherwise.</li>
 *   <li>{@code DocumentExistsException}, {@code CasMismatchException} and {@code DocumentNotFoundException}
 *       are conflict results for the writer to re-read and retry.</li>
 *   <li>Timeouts (ambiguous ones included), temporary failures, locked documents, unavailable
 *       services and cancelled requests are {@link StoreUnavailableException}: retried with backoff.
 *       An ambiguous timeout may have written: the writer's version check makes the retry harmless.</li>
 *   <li>Anything else (authentication, a missing bucket, a value too large) is a {@link StoreException}.</li>
 *   <li>Health is the transient-error rate over a sliding window, like a router's Couchbase health monitor.</li>
 *   <li>{@link #writeDecidedAsync} is truly asynchronous (the SDK's async API): a writer keeps many
 *       keys' writes in flight from one thread instead of paying a round trip per write.</li>
 * </ul>
 *
 * Lifecycle: {@link #connect} opens the cluster and waits for the bucket (fails fast with the reason);
 * {@link #close} disconnects, is idempotent, and later operations throw {@link StoreException}.
 */
public final class CouchbaseCacheStore implements CacheStore {

    private final CouchbaseStoreSettings settings;
    private final Cluster cluster;
    private final Collection collection;
    private final ErrorRateHealth health;
    private volatile boolean closed;

    private CouchbaseCacheStore(CouchbaseStoreSettings settings, Cluster cluster, Collection collection) {
        this.settings = settings;
        this.cluster = cluster;
        this.collection = collection;
        this.health = settings.health().newHealth();
    }

    public static CouchbaseCacheStore connect(CouchbaseStoreSettings settings) {
        Cluster cluster;
        try {
            cluster = connectCluster(settings);
        } catch (RuntimeException e) {
            throw new StoreException(
                    "cannot set up the Couchbase client for " + settings.connectionString() + ": " + e.getMessage()
                            + " (check couchbase.connection-string and couchbase.tls.*)",
                    e);
        }
        try {
            Bucket bucket = cluster.bucket(settings.bucket());
            bucket.waitUntilReady(settings.connectTimeout());
            Collection collection = bucket.scope(settings.scope()).collection(settings.collection());
            return new CouchbaseCacheStore(settings, cluster, collection);
        } catch (RuntimeException e) {
            cluster.disconnect();
            throw new StoreException(
                    "cannot open Couchbase bucket '" + settings.bucket() + "' at "
                            + settings.connectionString() + " within " + settings.connectTimeout() + ": "
                            + e.getMessage()
                            + " (check couchbase.connection-string, username, password and bucket)",
                    e);
        }
    }

    private static Cluster connectCluster(CouchbaseStoreSettings settings) {
        return Cluster.connect(
                settings.connectionString(),
                ClusterOptions.clusterOptions(
                                settings.username(), settings.password().reveal())
                        .environment(env -> {
                            env.timeoutConfig(
                                    t -> t.kvTimeout(settings.kvTimeout()).connectTimeout(settings.connectTimeout()));
                            if (settings.tls()) { // couchbases:// turns TLS on; these say whom to trust
                                env.securityConfig(s -> {
                                    s.enableHostnameVerification(settings.tlsVerifyHostname());
                                    if (!settings.tlsTrustCertificate().isEmpty()) {
                                        s.trustCertificate(Path.of(settings.tlsTrustCertificate()));
                                    }
                                });
                            }
                        }));
    }

    /**
     * Not here: Couchbase lists a collection's keys only through a KV range scan (Server 7.6 and later)
     * or a query index, and this store uses neither; sweeps for deleted rows skip a Couchbase cache.
     */
    @Override
    public KeyPage scanKeys(String prefix, String cursor, int limit) {
        throw new UnsupportedOperationException(
                "a Couchbase cache's keys are not listed (that needs a KV range scan, Couchbase Server 7.6+, or a"
                        + " query index; neither is used here)");
    }

    @Override
    public Optional<Stored> get(CacheKey key) {
        return call("get", key, () -> {
            try {
                GetResult r = collection.get(key.value(), getOptions().transcoder(RawBinaryTranscoder.INSTANCE));
                return Optional.of(new Stored(r.contentAs(byte[].class), r.cas()));
            } catch (DocumentNotFoundException e) {
                return Optional.empty();
            }
        });
    }

    @Override
    public WriteResult insertIfAbsent(CacheKey key, byte[] value, Duration expiry) {
        CacheStore.requireFiniteExpiry(expiry);
        return call("insert", key, () -> {
            try {
                MutationResult r = collection.insert(
                        key.value(), value, insertOptions().expiry(expiry).transcoder(RawBinaryTranscoder.INSTANCE));
                return WriteResult.ok(r.cas());
            } catch (DocumentExistsException e) {
                return WriteResult.of(Status.EXISTS);
            }
        });
    }

    @Override
    public WriteResult replaceIfCasMatches(CacheKey key, byte[] value, long expectedCas, Duration expiry) {
        CacheStore.requireFiniteExpiry(expiry);
        return call("replace", key, () -> {
            try {
                MutationResult r = collection.replace(
                        key.value(),
                        value,
                        replaceOptions().cas(expectedCas).expiry(expiry).transcoder(RawBinaryTranscoder.INSTANCE));
                return WriteResult.ok(r.cas());
            } catch (CasMismatchException e) {
                return WriteResult.of(Status.CAS_MISMATCH);
            } catch (DocumentNotFoundException e) {
                return WriteResult.of(Status.NOT_FOUND);
            }
        });
    }

    @Override
    public WriteResult upsert(CacheKey key, byte[] value, Duration expiry) {
        CacheStore.requireFiniteExpiry(expiry);
        return call(
                "upsert",
                key,
                () -> WriteResult.ok(collection
                        .upsert(
                                key.value(),
                                value,
                                upsertOptions().expiry(expiry).transcoder(RawBinaryTranscoder.INSTANCE))
                        .cas()));
    }

    /** A blind upsert through the SDK's async API: the baseline the ordered write is measured against. */
    @Override
    public CompletableFuture<WriteResult> upsertAsync(CacheKey key, byte[] value, Duration expiry) {
        CacheStore.requireFiniteExpiry(expiry);
        if (closed) {
            return CompletableFuture.failedFuture(new StoreException("Couchbase store " + settings + " is closed"));
        }
        return collection
                .async()
                .upsert(key.value(), value, upsertOptions().expiry(expiry).transcoder(RawBinaryTranscoder.INSTANCE))
                .thenApply(m -> WriteResult.ok(m.cas()))
                .handle((result, e) -> {
                    if (e == null) {
                        health.success();
                        return result;
                    }
                    throw new CompletionException(classify("upsert", key, cause(e)));
                });
    }

    @Override
    public boolean isAsync() {
        return true;
    }

    /** Get, decide, then insert or CAS-replace, each step a non-blocking SDK call. */
    @Override
    public CompletableFuture<WriteResult> writeDecidedAsync(
            CacheKey key, Duration expiry, Function<Optional<byte[]>, byte[]> decide) {
        CacheStore.requireFiniteExpiry(expiry);
        if (closed) {
            return CompletableFuture.failedFuture(new StoreException("Couchbase store " + settings + " is closed"));
        }
        AsyncCollection async = collection.async();
        String id = key.value();
        return async.get(id, getOptions().transcoder(RawBinaryTranscoder.INSTANCE))
                .thenApply(r -> Optional.of(new Stored(r.contentAs(byte[].class), r.cas())))
                .exceptionally(e -> {
                    if (cause(e) instanceof DocumentNotFoundException) {
                        return Optional.empty();
                    }
                    throw new CompletionException(cause(e));
                })
                .thenCompose(current -> {
                    byte[] value = decide.apply(current.map(Stored::value));
                    if (value == null) {
                        return CompletableFuture.completedFuture((WriteResult) null);
                    }
                    CompletableFuture<MutationResult> write = current.isEmpty()
                            ? async.insert(
                                    id, value, insertOptions().expiry(expiry).transcoder(RawBinaryTranscoder.INSTANCE))
                            : async.replace(
                                    id,
                                    value,
                                    replaceOptions()
                                            .cas(current.get().cas())
                                            .expiry(expiry)
                                            .transcoder(RawBinaryTranscoder.INSTANCE));
                    return write.thenApply(m -> WriteResult.ok(m.cas())).exceptionally(e -> {
                        Throwable c = cause(e);
                        if (c instanceof DocumentExistsException) {
                            return WriteResult.of(Status.EXISTS);
                        } else if (c instanceof CasMismatchException) {
                            return WriteResult.of(Status.CAS_MISMATCH);
                        } else if (c instanceof DocumentNotFoundException) {
                            return WriteResult.of(Status.NOT_FOUND);
                        }
                        throw new CompletionException(c);
                    });
                })
                .handle((result, e) -> {
                    if (e == null) {
                        health.success();
                        return result;
                    }
                    throw new CompletionException(classify("write", key, cause(e)));
                });
    }

    private static Throwable cause(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }

    @Override
    public Health health() {
        return closed ? Health.down("Couchbase store " + settings + " is closed") : health.health();
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            cluster.disconnect();
        }
    }

    private <T> T call(String op, CacheKey key, Supplier<T> body) {
        if (closed) {
            throw new StoreException("Couchbase store " + settings + " is closed");
        }
        try {
            T result = body.get();
            health.success();
            return result;
        } catch (CouchbaseException e) {
            throw classify(op, key, e);
        }
    }

    /**
     * What a failed call means to the writer: transient ({@link StoreUnavailableException}, retried and
     * counted in health), permanent ({@link StoreException}), or not the store's (returned as it is).
     */
    private RuntimeException classify(String op, CacheKey key, Throwable e) {
        if (e instanceof TimeoutException
                || e instanceof TemporaryFailureException
                || e instanceof DocumentLockedException
                || e instanceof ServiceNotAvailableException
                || e instanceof RequestCanceledException) {
            if (closed) {
                return new StoreException("Couchbase store " + settings + " closed during " + op, e);
            }
            health.failure(e);
            String ambiguity = e instanceof AmbiguousTimeoutException ? " (ambiguous: it may have been applied)" : "";
            return new StoreUnavailableException(
                    "Couchbase " + op + " of '" + key + "' failed transiently" + ambiguity + ": "
                            + e.getClass().getSimpleName(),
                    e);
        }
        if (e instanceof CouchbaseException) {
            return new StoreException("Couchbase " + op + " of '" + key + "' failed: " + e.getMessage(), e);
        }
        return e instanceof RuntimeException r ? r : new StoreException("Couchbase " + op + " of '" + key + "'", e);
    }
}
