/// A causal chain as a key that tells chains apart by what they did
/// (``CauseLink/stepCode`` of every step), not by which calls or values:
/// counting reruns by shape hashes each link once and compares chains link by
/// link, with no array built per rerun.
struct CauseShape: Hashable {
    /// The first chain seen with this shape.
    let link: CauseLink

    static func == (lhs: CauseShape, rhs: CauseShape) -> Bool { CauseLink.sameShape(lhs.link, rhs.link) }

    func hash(into hasher: inout Hasher) { hasher.combine(link.shapeHash) }
}
