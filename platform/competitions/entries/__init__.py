"""Who is in a tournament: its entries (users enter, swap and withdraw their bots; managers
add and remove any: ``services``) and its members (the audience, the invitation link, the
hand-over: ``membership``), with their pages (``views``, ``member_views``) and endpoints
(``api``). Below the tournaments' pages, which show these parts; above the app's core."""
