// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

// libcurl, loaded the first time FoundationNetworking calls it rather than when `kf` starts.
//
// Foundation needs FoundationNetworking for URLRequest and HTTPURLResponse, and
// FoundationNetworking links libcurl, which brings 33 more shared libraries (GnuTLS, Kerberos,
// LDAP, SSH, RTMP…): about 7 ms of dynamic linking and constructors at every start of a
// process that never calls URLSession (the library downloads through AsyncHTTPClient). On
// x86_64 this target defines the functions FoundationNetworking calls as stubs: the first call
// of any of them opens libcurl.so.4, resolves them all, and goes on to the real function with
// its arguments untouched. Linked with --as-needed, libcurl then leaves the executable's
// dependencies. On other architectures it defines nothing and libcurl is linked as usual.
#ifndef KF_LAZY_CURL_H
#define KF_LAZY_CURL_H

#include <stdbool.h>

/// Whether libcurl is open: false until FoundationNetworking first calls it (always true where
/// the stubs do not exist).
bool kf_lazy_curl_is_loaded(void);

/// Reads the host of `url` into `host` (`size` bytes) by calling libcurl's URL API through the
/// stubs (curl_url, curl_url_set, curl_url_get, curl_free), loading libcurl first if no call
/// has yet: a check that the stubs reach libcurl with their arguments intact. False when libcurl
/// refuses the URL.
bool kf_lazy_curl_url_host(const char *url, char *host, unsigned long size);

#endif
