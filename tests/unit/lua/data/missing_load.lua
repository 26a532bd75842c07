-- Uses an API the host does not provide, while loading.
local p = Proto("tmissload", "Missing API at load")

local conv = TcpConversation.new()
