// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

import CLazyCurl
import Testing

/// CLazyCurl's stubs, which this test process links as `kf` does: the first call opens libcurl
/// and reaches it with its arguments intact, as do the calls after it.
@Suite struct LazyCurlTests {
    @Test func theStubsOpenLibcurlAndPassTheirArgumentsThrough() {
        var host = [CChar](repeating: 0, count: 64)
        #expect(kf_lazy_curl_url_host("http://127.0.0.1:8080/a?b=c", &host, UInt(host.count)))
        #expect(String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == "127.0.0.1")
        #expect(kf_lazy_curl_is_loaded())
        #expect(!kf_lazy_curl_url_host("not a url", &host, UInt(host.count)), "libcurl's answer comes back")
    }
}
