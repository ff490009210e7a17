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

import io.lettuce.core.RedisCommandExecutionException;
import java.util.concurrent.CompletionException;

/** What a Redis error means: passing (loading, busy, failing over), a whole call refused, and the setting to look at. */
final class RedisErrors {

    private RedisErrors() {}

    static Throwable unwrapped(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /** A server's error for a whole call that is not transient: nothing of it ran, and one key may be why. */
    static boolean refusedAsAWhole(Throwable error) {
        Throwable e = unwrapped(error);
        return e instanceof RedisCommandExecutionException
                && !isTransient(String.valueOf(e.getMessage()))
                && !String.valueOf(e.getMessage()).contains("Function not found");
    }

    /** Server errors that pass: loading after a restart, a busy script, a cluster failing over, memory full. */
    static boolean isTransient(String message) {
        return message.startsWith("LOADING")
                || message.startsWith("BUSY")
                || message.startsWith("TRYAGAIN")
                || message.startsWith("CLUSTERDOWN")
                || message.startsWith("MASTERDOWN")
                || message.startsWith("READONLY")
                || message.startsWith("OOM");
    }

    static String reason(Throwable e) {
        StringBuilder out = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c.getMessage() != null && !out.toString().contains(c.getMessage())) {
                out.append(": ").append(c.getMessage());
            }
        }
        return out.toString();
    }

    /** The setting to look at for a failure to connect. */
    static String hint(Throwable e) {
        String all = reason(e);
        if (all.contains(RedisCacheStore.LIBRARY + " is not loaded")) {
            return "an admin loads it once per server, and again after a server restarts empty";
        }
        if (all.contains("WRONGPASS") || all.contains("NOAUTH") || all.contains("NOPERM")) {
            return "check redis.username and redis.password, and the user's ACL";
        }
        if (all.contains("unknown command")
                && all.toUpperCase(java.util.Locale.ROOT).contains("FUNCTION")) {
            return "this server has no Redis Functions: Nearline needs Redis 7.0 or later";
        }
        if (all.contains("SSL") || all.contains("PKIX") || all.contains("certific") || all.contains("handshake")) {
            return "check redis.servers' scheme and redis.tls.*";
        }
        return "check redis.servers and that the server is up";
    }
}
