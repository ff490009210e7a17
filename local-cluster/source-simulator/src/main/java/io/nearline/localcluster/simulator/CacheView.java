package io.nearline.localcluster.simulator;

import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecord;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.store.CacheStore;
import java.util.Optional;

/** A cache as the divergence checker sees it: the record of a key, if any. */
@FunctionalInterface
public interface CacheView {

    Optional<CacheRecord> get(CacheKey key);

    static CacheView of(CacheStore store) {
        return key -> store.get(key).map(stored -> CacheRecordCodec.decode(stored.value()));
    }
}
