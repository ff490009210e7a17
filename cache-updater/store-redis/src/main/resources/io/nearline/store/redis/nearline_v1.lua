#!lua name=nearline_v1

-- The Redis side of Nearline's cache store (docs/cache-record-format.md, "Redis").
--
-- Every key holds one Redis string: an 8-byte CAS token, then the cache record's envelope.
-- The version a write is ordered by is bytes 2..13 of the envelope (SCN then schema version, both
-- big-endian and never negative), so it sits at bytes 10..21 of the string. GETRANGE reads those
-- bytes without copying the payload, and comparing them byte by byte is comparing versions.
--
-- Each function touches only the key it is given, so it runs unchanged on Redis Cluster.
-- Errors start with a word the client maps: NEARLINE_CORRUPT (a value this library did not write).

local CAS = 8                -- bytes of the CAS token in front of the envelope
local HEAD = CAS + 14        -- token, format, flags, scn, schema version
local FORMAT_V1 = 1

-- The stored head of a key, '' when the key is absent (or expired); an error for a value that is
-- not a cache record of a format this library knows: it is never overwritten.
local function stored_head(key)
    local head = redis.call('GETRANGE', key, 0, HEAD - 1)
    if head == '' and redis.call('EXISTS', key) == 0 then
        return ''
    end
    if #head < HEAD or string.byte(head, CAS + 1) ~= FORMAT_V1 or string.byte(head, CAS + 2) > 1 then
        return redis.error_reply('NEARLINE_CORRUPT the value at this key is not a cache record of format 1')
    end
    return head
end

-- -1, 0 or 1 as the version in head a is below, equal to or above the one in head b. The 12
-- bytes are read as three unsigned 32-bit big-endian numbers (exact in Lua's doubles, where a 64-bit
-- SCN would not be) and compared in order; not with '<' on strings, which follows the server's locale.
local function compare_versions(a, b)
    local a1, a2, a3 = struct.unpack('>I4I4I4', a, CAS + 3)
    local b1, b2, b3 = struct.unpack('>I4I4I4', b, CAS + 3)
    if a1 ~= b1 then
        return a1 < b1 and -1 or 1
    elseif a2 ~= b2 then
        return a2 < b2 and -1 or 1
    elseif a3 ~= b3 then
        return a3 < b3 and -1 or 1
    end
    return 0
end

-- The ordered write. KEYS[1]: the key. ARGV[1]: the new value (token .. envelope); ARGV[2]: its
-- expiry in milliseconds; ARGV[3]: '1' to rewrite an equal version (restarting its expiry).
-- Returns {outcome, stored head}: APPLIED, REFRESHED, DUPLICATE or STALE.
local function write_if_newer(keys, args)
    local head = stored_head(keys[1])
    if type(head) == 'table' then
        return head
    end
    local outcome = 'APPLIED'
    if head ~= '' then
        local order = compare_versions(args[1], head)
        if order < 0 then
            return {'STALE', head}
        elseif order == 0 then
            if args[3] ~= '1' then
                return {'DUPLICATE', head}
            end
            outcome = 'REFRESHED'
        end
    end
    redis.call('SET', keys[1], args[1], 'PX', args[2])
    return {outcome, head}
end

-- Compare-and-swap. KEYS[1]: the key. ARGV[1]: the expected token; ARGV[2]: the new value;
-- ARGV[3]: its expiry in milliseconds. Returns OK, CAS_MISMATCH or NOT_FOUND.
local function replace_if_cas(keys, args)
    local token = redis.call('GETRANGE', keys[1], 0, CAS - 1)
    if token == '' and redis.call('EXISTS', keys[1]) == 0 then
        return 'NOT_FOUND'
    end
    if token ~= args[1] then
        return 'CAS_MISMATCH'
    end
    redis.call('SET', keys[1], args[2], 'PX', args[3])
    return 'OK'
end

redis.register_function('nearline_v1_write', write_if_newer)
redis.register_function('nearline_v1_replace', replace_if_cas)
