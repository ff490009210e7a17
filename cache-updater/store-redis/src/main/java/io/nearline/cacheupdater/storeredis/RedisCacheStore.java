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
package io.nearline.cacheupdater.storeredis;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CorruptCacheRecordException;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.ErrorRateHealth;
import io.nearline.common.store.StoreException;
import io.nearline.common.store.StoreOrderedWrite;
import io.nearline.common.store.StoreUnavailableException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The {@link CacheStore} on Redis 7, standalone or Redis Cluster, through Lettuce.
 *
 * <ul>
 *   <li>Each key is one Redis string: an 8-byte CAS token, then the cache-record envelope. The
 *       version sits at fixed bytes of it, so the server reads it with {@code GETRANGE} without
 *       touching the payload.</li>
 *   <li>The version-ordered write is a Redis Function ({@code nearline_v2.lua}): compare, write value
 *       and expiry, atomically on the server for each key, one round trip — the same as a blind
 *       {@code SET}; a writer's batch goes in one call ({@link #writeAllIfNewer}). An
 *       admin loads it ({@link #loadFunctions}); the job's user needs only the commands it calls
 *       ({@link #JOB_COMMANDS}). A library already loaded is never replaced by the job; a user that
 *       may load one (not recommended) loads it where it is missing.</li>
 *   <li>The CAS token is random per write: Redis has no token of its own, and a random 64-bit one
 *       tells two states of a key apart without a counter key (which Redis Cluster could not reach
 *       from the key's function).</li>
 *   <li>Every command is asynchronous: Lettuce writes it on the key's connection (the key's node in a
 *       cluster) without waiting for the replies before it, so a writer's batch is pipelined.</li>
 *   <li>Timeouts, lost connections and a server busy, loading or failing over are
 *       {@link StoreUnavailableException} (retried); a wrong password, a missing permission or a key
 *       holding another type are {@link StoreException}; a value this store did not write is never
 *       overwritten ({@link CorruptCacheRecordException}).</li>
 * </ul>
 */
public final class RedisCacheStore implements CacheStore, StoreOrderedWrite {

    /** The function library; its name changes with its code (NearlineLibraryTest holds it). */
    public static final String LIBRARY = "nearline_v2";

    /**
     * The commands the job's Redis user needs, as an ACL rule (keys and channels aside): the store's
     * reads and writes, the commands its function runs (ACLs hold inside functions too), the check that
     * the function is loaded, and what the client sends on connecting and, on a cluster, to learn the
     * slots.
     */
    public static final String JOB_COMMANDS = "-@all +get +set +exists +getrange +fcall +function|list +ping +hello"
            + " +auth +client|setname +info +cluster|nodes +cluster|shards +cluster|slots +cluster|myid"
            + " +readonly +command +scan";

    static final String WRITE = LIBRARY + "_write";
    static final String REPLACE = LIBRARY + "_replace";
    private static final byte[] ONE = {'1'};
    private static final byte[] ZERO = {'0'};

    private final RedisStoreSettings settings;
    private final RedisConnection connection;
    private final RedisClusterAsyncCommands<byte[], byte[]> commands;
    private final RedisFunctions functions;
    private final ErrorRateHealth health;
    private volatile boolean closed;

    private RedisCacheStore(RedisStoreSettings settings, RedisConnection connection) {
        this.settings = settings;
        this.connection = connection;
        this.commands = connection.commands();
        this.functions = new RedisFunctions(commands, settings);
        this.health = settings.health().newHealth();
    }

    /**
     * Connects, authenticates and checks that the functions are loaded; fails with the reason and the
     * setting to check.
     */
    public static RedisCacheStore connect(RedisStoreSettings settings) {
        return connect(settings, true);
    }

    private static RedisCacheStore connect(RedisStoreSettings settings, boolean needFunctions) {
        try {
            RedisConnection connection = RedisConnection.open(settings);
            try {
                RedisCacheStore store = new RedisCacheStore(settings, connection);
                if (needFunctions) {
                    store.functions.ensure();
                }
                return store;
            } catch (RuntimeException e) {
                connection.close();
                throw e;
            }
        } catch (RuntimeException e) {
            throw new StoreException(
                    "cannot open the Redis store at " + settings.servers() + ": " + RedisErrors.reason(e) + " ("
                            + RedisErrors.hint(e) + ")",
                    e);
        }
    }

    /** The library as this jar has it, for an admin's own tools ({@code redis-cli -x FUNCTION LOAD}). */
    public static String functionLibrary() {
        return RedisFunctions.text();
    }

    /**
     * Loads (or replaces) the function library on the server, or on every primary of a cluster, as the
     * user {@code admin} names: what an operator does once, and again after a server without
     * persistence restarts empty. The job's own user need not be allowed to.
     */
    public static void loadFunctions(RedisStoreSettings admin) {
        try (RedisCacheStore store = connect(admin, false)) {
            store.functions.load(true);
        }
    }

    // ---- the port ------------------------------------------------------------------------------

    @Override
    public Optional<Stored> get(CacheKey key) {
        byte[] framed = call("get", key, () -> commands.get(RedisFraming.bytes(key)));
        return framed == null ? Optional.empty() : Optional.of(RedisFraming.unframe(key, framed));
    }

    /**
     * Redis's SCAN with a MATCH of the prefix, in the server's order (on a cluster, node after node).
     * A key may be listed twice. The cursor is a token of this store object: a scan goes on through
     * the store that began it.
     */
    @Override
    public KeyPage scanKeys(String prefix, String cursor, int limit) {
        ScanCursor from;
        if (cursor == null) {
            from = ScanCursor.INITIAL;
        } else {
            synchronized (scans) {
                from = scans.remove(cursor);
            }
            if (from == null) {
                throw new IllegalArgumentException("no scan of this store is at cursor " + cursor);
            }
        }
        ScanArgs args =
                ScanArgs.Builder.matches(RedisFraming.glob(prefix) + "*").limit(limit);
        KeyScanCursor<byte[]> page =
                call("scan", CacheKey.of(prefix.isEmpty() ? "*" : prefix), () -> commands.scan(from, args));
        List<CacheKey> keys = page.getKeys().stream()
                .map(k -> CacheKey.of(new String(k, StandardCharsets.UTF_8)))
                .toList();
        if (page.isFinished()) {
            return new KeyPage(keys, null);
        }
        String next = Long.toHexString(scanTokens.incrementAndGet());
        synchronized (scans) {
            scans.put(next, page);
        }
        return new KeyPage(keys, next);
    }

    /**
     * Scans under way, by the token handed out as their cursor: on a cluster Lettuce must be given the
     * cursor object it returned (it holds the node the scan is on). The oldest are forgotten.
     */
    private final Map<String, ScanCursor> scans = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ScanCursor> eldest) {
            return size() > 64;
        }
    };

    private final AtomicLong scanTokens = new AtomicLong();

    @Override
    public WriteResult insertIfAbsent(CacheKey key, byte[] value, Duration expiry) {
        CacheStore.requireFiniteExpiry(expiry);
        return call("insert", key, () -> insertAsync(key, value, expiry));
    }

    private CompletableFuture<WriteResult> insertAsync(CacheKey key, byte[] value, Duration expiry) {
        long token = RedisFraming.newToken();
        return commands.set(
                        RedisFraming.bytes(key),
                        RedisFraming.frame(token, value),
                        SetArgs.Builder.nx().px(expiry.toMillis()))
                .toCompletableFuture()
                .thenApply(reply -> reply == null ? WriteResult.of(Status.EXISTS) : WriteResult.ok(token));
    }

    @Override
    public WriteResult replaceIfCasMatches(CacheKey key, byte[] value, long expectedCas, Duration expiry) {
        CacheStore.requireFiniteExpiry(expiry);
        return call("replace", key, () -> replaceAsync(key, value, expectedCas, expiry));
    }

    private CompletableFuture<WriteResult> replaceAsync(CacheKey key, byte[] value, long expectedCas, Duration expiry) {
        long token = RedisFraming.newToken();
        CompletionStage<byte[]> reply = commands.fcall(
                REPLACE,
                ScriptOutputType.VALUE,
                new byte[][] {RedisFraming.bytes(key)},
                ByteBuffer.allocate(RedisFraming.TOKEN_BYTES)
                        .putLong(expectedCas)
                        .array(),
                RedisFraming.frame(token, value),
                RedisFraming.millis(expiry));
        return reply.toCompletableFuture().thenApply(r -> switch (new String(r, StandardCharsets.US_ASCII)) {
            case "OK" -> WriteResult.ok(token);
            case "CAS_MISMATCH" -> WriteResult.of(Status.CAS_MISMATCH);
            case "NOT_FOUND" -> WriteResult.of(Status.NOT_FOUND);
            default -> throw new StoreException("unexpected reply from " + REPLACE + ": " + Arrays.toString(r));
        });
    }

    @Override
    public WriteResult upsert(CacheKey key, byte[] value, Duration expiry) {
        CacheStore.requireFiniteExpiry(expiry);
        return call("upsert", key, () -> setAsync(key, value, expiry));
    }

    /** A blind {@code SET … PX}: the baseline the ordered write is measured against. */
    @Override
    public CompletableFuture<WriteResult> upsertAsync(CacheKey key, byte[] value, Duration expiry) {
        CacheStore.requireFiniteExpiry(expiry);
        if (closed) {
            return CompletableFuture.failedFuture(closedError());
        }
        return settled("upsert", key, setAsync(key, value, expiry));
    }

    private CompletableFuture<WriteResult> setAsync(CacheKey key, byte[] value, Duration expiry) {
        long token = RedisFraming.newToken();
        return commands.set(
                        RedisFraming.bytes(key),
                        RedisFraming.frame(token, value),
                        SetArgs.Builder.px(expiry.toMillis()))
                .toCompletableFuture()
                .thenApply(reply -> WriteResult.ok(token));
    }

    @Override
    public boolean isAsync() {
        return true;
    }

    /** Read, decide, then insert or compare-and-swap: two round trips. The writer uses {@link #writeIfNewer} instead. */
    @Override
    public CompletableFuture<WriteResult> writeDecidedAsync(
            CacheKey key, Duration expiry, Function<Optional<byte[]>, byte[]> decide) {
        CacheStore.requireFiniteExpiry(expiry);
        if (closed) {
            return CompletableFuture.failedFuture(closedError());
        }
        CompletableFuture<WriteResult> done = commands.get(RedisFraming.bytes(key))
                .toCompletableFuture()
                .thenCompose(framed -> {
                    Optional<Stored> current =
                            framed == null ? Optional.empty() : Optional.of(RedisFraming.unframe(key, framed));
                    byte[] value = decide.apply(current.map(Stored::value));
                    if (value == null) {
                        return CompletableFuture.completedFuture(null);
                    }
                    return current.isEmpty()
                            ? insertAsync(key, value, expiry)
                            : replaceAsync(key, value, current.get().cas(), expiry);
                });
        return settled("write", key, done);
    }

    @Override
    public Optional<StoreOrderedWrite> orderedWrite() {
        return Optional.of(this);
    }

    /** The ordered write as one call of the server-side function. */
    @Override
    public CompletableFuture<Result> writeIfNewer(CacheKey key, byte[] record, boolean rewriteEqual, Duration expiry) {
        return writeAllIfNewer(List.of(new Write(key, record, rewriteEqual, expiry)))
                .get(0);
    }

    /**
     * Every write in one call of the server-side function, or on a cluster one call per hash slot the
     * keys fall in (a function may touch only one slot's keys): the call's own cost on the server, and
     * the client's cost of a command, are paid once per call instead of once per key.
     */
    @Override
    public List<CompletableFuture<Result>> writeAllIfNewer(List<Write> writes) {
        writes.forEach(w -> CacheStore.requireFiniteExpiry(w.expiry()));
        if (closed) {
            return writes.stream()
                    .map(w -> CompletableFuture.<Result>failedFuture(closedError()))
                    .toList();
        }
        List<CompletableFuture<Result>> results = new ArrayList<>(Collections.nCopies(writes.size(), null));
        for (List<Integer> positions : calls(writes)) {
            List<Write> call = positions.stream().map(writes::get).toList();
            List<CompletableFuture<Result>> replies = send(call);
            for (int i = 0; i < call.size(); i++) {
                results.set(positions.get(i), settled("write", call.get(i).key(), replies.get(i)));
            }
        }
        return results;
    }

    /**
     * One call of the function for {@code call}'s writes: each key's own reply. Where the server
     * refuses the call as a whole before running it (an ACL that forbids one of its keys), the keys
     * are sent again one a call, so that the refusal is only that key's, as with one key a call.
     */
    private List<CompletableFuture<Result>> send(List<Write> call) {
        byte[][] keys = new byte[call.size()][];
        byte[][] args = new byte[3 * call.size()][];
        for (int i = 0; i < call.size(); i++) {
            Write w = call.get(i);
            keys[i] = RedisFraming.bytes(w.key());
            args[3 * i] = RedisFraming.frame(RedisFraming.newToken(), w.record());
            args[3 * i + 1] = RedisFraming.millis(w.expiry());
            args[3 * i + 2] = w.rewriteEqual() ? ONE : ZERO;
        }
        CompletableFuture<List<Object>> reply = commands.<List<Object>>fcall(WRITE, ScriptOutputType.MULTI, keys, args)
                .toCompletableFuture();
        // decided once per call, not once per key
        CompletableFuture<Boolean> refused =
                call.size() == 1 ? null : reply.handle((r, e) -> e != null && RedisErrors.refusedAsAWhole(e));
        List<CompletableFuture<Result>> replies = new ArrayList<>(call.size());
        for (int i = 0; i < call.size(); i++) {
            int at = i;
            Write w = call.get(i);
            CompletableFuture<Result> own = reply.thenApply(r -> RedisFraming.result(w.key(), (byte[]) r.get(at)));
            replies.add(
                    refused == null
                            ? own
                            : refused.thenCompose(
                                    whole -> whole ? send(List.of(w)).get(0) : own));
        }
        return replies;
    }

    /** The writes' positions grouped into the function calls that carry them: one call, or one per hash slot. */
    private List<List<Integer>> calls(List<Write> writes) {
        List<Integer> all = IntStream.range(0, writes.size()).boxed().toList();
        if (!settings.cluster()) {
            return List.of(all);
        }
        return List.copyOf(all.stream()
                .collect(Collectors.groupingBy(
                        i -> SlotHash.getSlot(RedisFraming.bytes(writes.get(i).key())),
                        LinkedHashMap::new,
                        Collectors.toList()))
                .values());
    }

    @Override
    public Health health() {
        return closed ? Health.down("Redis store " + settings + " is closed") : health.health();
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            connection.close();
        }
    }

    private <T> T call(String op, CacheKey key, Supplier<? extends CompletionStage<T>> command) {
        if (closed) {
            throw closedError();
        }
        try {
            T result = command.get().toCompletableFuture().get(deadlineMillis(), TimeUnit.MILLISECONDS);
            health.success();
            return result;
        } catch (ExecutionException e) {
            throw classify(op, key, e.getCause());
        } catch (TimeoutException e) {
            throw classify(op, key, new RedisCommandTimeoutException("no reply within " + deadlineMillis() + " ms"));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("Redis " + op + " of '" + key + "' interrupted", e);
        }
    }

    private <T> CompletableFuture<T> settled(String op, CacheKey key, CompletableFuture<T> reply) {
        return reply.handle((result, e) -> {
            if (e == null) {
                health.success();
                return result;
            }
            throw new CompletionException(classify(op, key, e));
        });
    }

    /** Lettuce times out each command itself; this only guards against a reply that never comes. */
    private long deadlineMillis() {
        return settings.commandTimeout().toMillis() * 2 + 1000;
    }

    private StoreException closedError() {
        return new StoreException("Redis store " + settings + " is closed");
    }

    /**
     * What a failed command means to the writer: transient ({@link StoreUnavailableException}, retried
     * and counted in health), a value it must not overwrite, or permanent ({@link StoreException}).
     */
    private RuntimeException classify(String op, CacheKey key, Throwable error) {
        Throwable e = RedisErrors.unwrapped(error);
        if (e instanceof StoreException || e instanceof CorruptCacheRecordException) {
            return (RuntimeException) e;
        }
        if (closed) {
            return new StoreException("Redis store " + settings + " closed during " + op, e);
        }
        String message = String.valueOf(e.getMessage());
        if (e instanceof RedisCommandExecutionException) {
            if (message.startsWith("WRONGTYPE")) {
                return new StoreException(
                        "Redis " + op + " of '" + key + "' refused: the key holds another type "
                                + "than a string (another application's data?); it was left alone",
                        e);
            }
            if (message.contains("Function not found")) {
                functions.reload();
                return transientError(
                        op,
                        key,
                        e,
                        " (the server lost its functions: they are loaded again where user '" + settings.username()
                                + "' may, else an admin must load " + LIBRARY + ")");
            }
            if (!RedisErrors.isTransient(message)) {
                return new StoreException("Redis " + op + " of '" + key + "' failed: " + message, e);
            }
        } else if (!(e instanceof RedisException)) {
            return e instanceof RuntimeException r ? r : new StoreException("Redis " + op + " of '" + key + "'", e);
        }
        String ambiguity = e instanceof RedisCommandTimeoutException ? " (ambiguous: it may have been applied)" : "";
        return transientError(op, key, e, ambiguity);
    }

    private StoreUnavailableException transientError(String op, CacheKey key, Throwable e, String note) {
        health.failure(e);
        return new StoreUnavailableException(
                "Redis " + op + " of '" + key + "' failed transiently" + note + ": " + e.getMessage(), e);
    }

    @Override
    public String toString() {
        return "RedisCacheStore[" + settings + "]";
    }
}
