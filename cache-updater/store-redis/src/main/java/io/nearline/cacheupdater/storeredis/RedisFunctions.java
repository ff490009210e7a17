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

import io.lettuce.core.RedisException;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.nearline.common.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * The store's function library on the server ({@code nearline_v2.lua}, on every primary of a
 * cluster): loaded by an admin, checked at the job's start, and loaded again where the job's user may
 * after a server restarted empty.
 */
final class RedisFunctions {

    private final RedisClusterAsyncCommands<byte[], byte[]> commands;
    private final RedisStoreSettings settings;
    private final String functions = text();
    private final AtomicBoolean reloading = new AtomicBoolean();

    RedisFunctions(RedisClusterAsyncCommands<byte[], byte[]> commands, RedisStoreSettings settings) {
        this.commands = commands;
        this.settings = settings;
    }

    /** The library as the store's jar has it. */
    static String text() {
        try (InputStream in = RedisFunctions.class.getResourceAsStream(RedisCacheStore.LIBRARY + ".lua")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("the store's function library is missing from its jar", e);
        }
    }

    void load(boolean replace) {
        CompletionStage<?> loaded = commands instanceof RedisAdvancedClusterAsyncCommands<byte[], byte[]> cluster
                ? cluster.upstream().commands().functionLoad(functions, replace)
                : commands.functionLoad(functions, replace);
        await(loaded.toCompletableFuture());
    }

    /** The library on the server (every primary): there already, or loaded now if this user may. */
    void ensure() {
        if (loadedEverywhere()) {
            return;
        }
        try {
            load(false);
        } catch (RuntimeException e) {
            if (!RedisErrors.reason(e).contains("NOPERM")) {
                throw e;
            }
            throw new StoreException("the Redis function library " + RedisCacheStore.LIBRARY + " is not loaded on "
                    + settings.servers() + ", and user '" + settings.username() + "' may not load it (as it "
                    + "should not): load it as an admin, see docs/redis.md#the-function-library");
        }
    }

    private boolean loadedEverywhere() {
        if (commands instanceof RedisAdvancedClusterAsyncCommands<byte[], byte[]> cluster) {
            List<List<Map<String, Object>>> each = await(cluster.upstream()
                    .commands()
                    .functionList(RedisCacheStore.LIBRARY)
                    .thenCollect(Collectors.toList())
                    .toCompletableFuture());
            return each.stream().noneMatch(List::isEmpty);
        }
        return !await(commands.functionList(RedisCacheStore.LIBRARY).toCompletableFuture())
                .isEmpty();
    }

    /**
     * A server that restarted empty lost the functions: where this user may, load them again, once at a
     * time, and let the writer retry; where it may not, the writer retries until an admin has.
     */
    void reload() {
        if (reloading.compareAndSet(false, true)) {
            CompletableFuture.runAsync(() -> {
                try {
                    load(false);
                } catch (RuntimeException e) {
                    // the next write that misses the functions tries again
                } finally {
                    reloading.set(false);
                }
            });
        }
    }

    private static <T> T await(CompletableFuture<T> f) {
        try {
            return f.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new RedisException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException("interrupted", e);
        }
    }
}
