// Everything of the imaging module is part of Kingfisher's API, as on Apple platforms, where
// images, processors and codecs come with `import Kingfisher`.
@_exported import KingfisherImaging
