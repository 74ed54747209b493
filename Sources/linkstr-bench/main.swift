import NostrProtocol
print("linkstr-bench")
