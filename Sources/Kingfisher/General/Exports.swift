// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

// Everything of the imaging module is part of Kingfisher's API, as on Apple platforms, where
// images, processors and codecs come with `import Kingfisher`.
@_exported import KingfisherImaging
