/// The page of `reactor-inspect serve`: the files under `Page/`, compiled into
/// the binary (SwiftPM's `embedInCode`), so no file is read at run time and
/// nothing is fetched from elsewhere: it works offline. The script builds every
/// element from data with `textContent` and attributes, never from markup, and
/// the graph's SVG is parsed as XML and stripped of anything active before it
/// joins the page.
enum PageAssets {
    /// `Page/index.html`.
    static let html: [UInt8] = PackageResources.index_html
    /// `Page/app.js`.
    static let script: [UInt8] = PackageResources.app_js
    /// `Page/app.css`.
    static let style: [UInt8] = PackageResources.app_css
}
