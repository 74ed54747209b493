import LinkstrDomain

public struct NewSessionForm: Equatable, Sendable {
    public var name = TextField()
    public var selected: Set<Pubkey> = []
    public var cursor = 0
    /// 0: the name field; 1: the contact list.
    public var focus = 0
    public var busy = false
    public var error: String?
    /// A shared link waiting for this session (started from the "Shared link" box).
    public var sharing: DeepLink.Link?
    public init() {}
}

public struct MembersForm: Equatable, Sendable {
    public var sessionID: String
    public var selected: Set<Pubkey>
    public var cursor = 0
    public var editable: Bool
    public var busy = false
    public var error: String?
    public init(sessionID: String, selected: Set<Pubkey>, editable: Bool) { self.sessionID = sessionID; self.selected = selected; self.editable = editable }
}
